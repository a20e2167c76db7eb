"""`paperkg sync DIR`: the periodic job. Ingests, retracts what deleted files asserted, reports."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from paperkg.cli import main
from paperkg.corpus.discovery import PathList, discover
from paperkg.load import incremental
from paperkg.load.incremental import DocIds
from paperkg.run.ingest import RunOptions, ingest_paths

from graph_dump import dump

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "corpus"


def test_sync_reports_new_then_unchanged_then_retracted(kb, seeds_dir, tmp_path, capsys):
    corpus = tmp_path / "corpus"
    shutil.copytree(seeds_dir, corpus)
    assert main(["sync", str(corpus), "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["totals"] == {"seen": 4, "new": 4, "changed": 0, "unchanged": 0, "rejected": 0, "retracted": 0}

    assert main(["sync", str(corpus), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["totals"]["unchanged"] == 4

    card = next(corpus.glob("000_*"))
    card.unlink()
    assert main(["sync", str(corpus), "--json"]) == 0
    third = json.loads(capsys.readouterr().out)
    assert third["totals"] == {"seen": 3, "new": 0, "changed": 0, "unchanged": 3, "rejected": 0, "retracted": 1}
    assert [d["path"] for d in third["documents"] if d["status"] == "retracted"] == [str(card)]


def test_retracting_a_document_leaves_the_graph_of_the_others(kb, seeds_dir, tmp_path):
    corpus = tmp_path / "corpus"
    shutil.copytree(seeds_dir, corpus)
    next(corpus.glob("000_*")).unlink()
    ingest_paths(kb, [corpus])
    without_card = dump(kb)
    kb.reset()

    shutil.copy(next(seeds_dir.glob("000_*")), corpus)
    ingest_paths(kb, [corpus])
    next(corpus.glob("000_*")).unlink()
    report = ingest_paths(kb, [corpus], RunOptions(prune=True))
    assert report.totals["retracted"] == 1
    assert dump(kb) == without_card


def test_documents_to_write_wait_for_their_batch_across_hash_lookups(kb, seeds_dir, tmp_path, monkeypatch):
    corpus = tmp_path / "corpus"
    shutil.copytree(seeds_dir, corpus)
    files = sorted(corpus.iterdir())
    ingest_paths(kb, [corpus])
    whole = dump(kb)
    kb.reset()
    for path in files[::2]:
        path.rename(tmp_path / path.name)
    ingest_paths(kb, [corpus])
    for path in files[::2]:
        (tmp_path / path.name).rename(path)
    monkeypatch.setattr(incremental, "HASH_LOOKUP_BATCH", 1)
    report = ingest_paths(kb, [corpus])
    assert sorted((d.path, d.status) for d in report.documents) == [
        (str(path), "unchanged" if i % 2 else "new") for i, path in enumerate(files)
    ]
    writes = kb.cypher(
        "MATCH (cs:ChangeSet {run_id: $run, action: 'write'}) RETURN cs.documents AS documents", run=report.run_id
    )
    assert writes == [{"documents": 2}]
    assert dump(kb) == whole


def test_retractions_are_batched_by_the_bytes_of_the_documents_as_writes_are(kb, tmp_path, monkeypatch):
    corpus = tmp_path / "corpus"
    shutil.copytree(EXAMPLES, corpus)
    pages = sorted(corpus.glob("page_*"))
    for page in pages:
        page.rename(tmp_path / page.name)
    ingest_paths(kb, [corpus])
    without_pages = dump(kb)
    for page in pages:
        (tmp_path / page.name).rename(page)
    ingest_paths(kb, [corpus])
    for page in pages:
        page.unlink()
    smallest = min(page.stat().st_size for page in EXAMPLES.glob("page_*"))
    largest_card = max(card.stat().st_size for card in EXAMPLES.glob("card_*"))
    assert largest_card < smallest
    monkeypatch.setattr(incremental, "BYTES_PER_TRANSACTION", smallest)  # a page ends its batch, cards do not
    report = ingest_paths(kb, [corpus], RunOptions(prune=True))
    assert report.totals["retracted"] == len(pages) == 4
    retractions = kb.cypher(
        "MATCH (cs:ChangeSet {run_id: $run, action: 'retract'}) RETURN cs.documents AS documents ORDER BY cs.batch",
        run=report.run_id,
    )
    assert retractions == [{"documents": 1}] * 4
    assert dump(kb) == without_pages


def test_sync_exit_codes_for_a_scheduler(kb, seeds_dir, tmp_path, capsys):
    corpus = tmp_path / "corpus"
    shutil.copytree(seeds_dir, corpus)
    (corpus / "999_bad.txt").write_text("not a document", encoding="utf-8")
    assert main(["sync", str(corpus)]) == 1
    captured = capsys.readouterr()
    assert "999_bad.txt:1:" in captured.err and "1 rejected" in captured.out
    assert main(["sync", str(tmp_path / "missing")]) == 2
    assert "not a directory" in capsys.readouterr().err


def test_the_ids_a_run_has_read_answer_by_their_hex_digest_and_nothing_else_is_among_them():
    read, other = "ab" * 32, "cd" * 32
    ids = DocIds()
    ids.add(read)
    ids.add(read.upper())  # the same digest
    assert (read in ids, read.upper() in ids, other in ids, len(ids)) == (True, True, False, 1)
    assert ("not a digest" in ids, None in ids) == (False, False)


def test_a_path_list_gives_back_each_path_and_holds_one_buffer_not_an_object_per_path():
    names = ["/corpus/card_1.txt", "/corpus/Über uns/page 2.txt", "relative/x.txt"]
    paths = PathList(names)

    assert (len(paths), paths[0], paths[-1], paths[1:]) == (
        3,
        Path(names[0]),
        Path(names[2]),
        [Path(names[1]), Path(names[2])],
    )
    assert (list(paths), paths.names(), PathList(paths).names(), PathList().names()) == (
        [Path(name) for name in names],
        names,
        names,
        [],
    )
    assert sorted(type(held).__name__ for held in vars(paths).values()) == ["array", "bytes"]
    with pytest.raises(IndexError):
        paths[3]


def test_discover_skips_hidden_files_and_directory_links_and_follows_file_links_only_inside(tmp_path):
    root = tmp_path.resolve()  # the expected paths are resolved ones
    corpus, elsewhere = root / "corpus", root / "elsewhere"
    for name in ("b.txt", "sub/a.txt", ".hidden/c.txt", ".d.txt"):
        (corpus / name).parent.mkdir(parents=True, exist_ok=True)
        (corpus / name).write_text("")
    (elsewhere / "e.txt").parent.mkdir()
    (elsewhere / "e.txt").write_text("")
    (corpus / "linked.txt").symlink_to(elsewhere / "e.txt")
    (corpus / "twice.txt").symlink_to(corpus / "b.txt")
    (corpus / "dir-link").symlink_to(elsewhere, target_is_directory=True)
    (corpus / "broken.txt").symlink_to(root / "nowhere")
    named = [corpus / "sub" / "..", corpus / "b.txt"]
    found = discover(named)
    assert found.files == [corpus / "b.txt", corpus / "sub" / "a.txt"]
    assert [(r.path, r.status) for r in found.rejected] == [(str(corpus / "linked.txt"), "rejected")]
    # Asked to, it follows the link out, as the document at the link's own path.
    assert discover(named, follow_links=True).files == [
        corpus / "b.txt",
        corpus / "linked.txt",
        corpus / "sub" / "a.txt",
    ]
