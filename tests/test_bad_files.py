"""One bad file never stops a run (issue 21): whatever a document or the file system does, that
entry alone is rejected in one line, the good documents land, the report is written, the
sync retracts what it should, and the run exits 1 (2 or 75 only for a failure of the run).
"""

from __future__ import annotations

import json
import os
import shutil
import threading
from pathlib import Path

import pytest

from paperkg.cli import main
from paperkg.corpus.discovery import discover
from paperkg.corpus.files import read_regular_file
from paperkg.corpus.reading import read_document
from paperkg.limits import MAX_DOCUMENT_BYTES
from paperkg.parse import ParseError
from paperkg.run.ingest import sync_directory

from procs import run
from seeds import FIXTURES
from synth import generate

NO_KEY_ITEM = "- [?](https://mlsanity.com/paper/1/) (2016)"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    """Thirty synthetic cards and a claim-check page."""
    out = tmp_path_factory.mktemp("bad-files-corpus")
    generate(out, papers=30, pages=1, seed=21)
    return out


@pytest.fixture
def docs(tmp_path, corpus) -> Path:
    """A writable copy of the corpus, resolved (the report names resolved paths)."""
    copy = tmp_path.resolve() / "docs"
    shutil.copytree(corpus, copy)
    return copy


def landed(kb) -> set[str]:
    return {row["path"] for row in kb.cypher("MATCH (d:Document) RETURN d.path AS path")}


def card_with_an_item(good_card: Path, item: str) -> tuple[str, int]:
    """A good card's text with its first list item replaced by `item`, and that item's line."""
    lines = good_card.read_text(encoding="utf-8").split("\n")
    first = next(i for i, line in enumerate(lines) if line.startswith("- ["))
    lines[first] = item
    return "\n".join(lines), first + 1


def report_of(capsys) -> dict:
    return json.loads(capsys.readouterr().out)


def by_name(report: dict) -> dict[str, dict]:
    return {Path(d["path"]).name: d for d in report["documents"]}


# -- defect 1: a list item with no usable key ------------------------------------------------


def test_a_card_item_that_names_no_work_is_rejected_alone_and_the_job_is_not_stuck(kb, docs, capsys):
    good = sorted(docs.iterdir())
    text, line = card_with_an_item(good[0], NO_KEY_ITEM)
    bad = docs / "000_no_key.txt"  # sorted first: in the first batch, before every good card
    bad.write_text(text, encoding="utf-8")
    assert main(["sync", str(docs), "--json", "--batch", "5"]) == 1
    report = by_name(report_of(capsys))
    assert report[bad.name]["status"] == "rejected" and report[bad.name]["line"] == line
    assert report[bad.name]["error"] == (
        f"{bad}:{line}: list item names no work: its link holds no arXiv id ('1') and its title no words"
    )
    assert landed(kb) == {str(path) for path in good}
    # The next sync is not stuck: it retracts a removed card and still rejects only the bad one.
    good[-1].unlink()
    assert main(["sync", str(docs), "--json"]) == 1
    again = report_of(capsys)
    assert again["totals"] == {
        "seen": len(good),
        "new": 0,
        "changed": 0,
        "unchanged": len(good) - 1,
        "rejected": 1,
        "retracted": 1,
    }
    assert landed(kb) == {str(path) for path in good[:-1]}
    assert kb.cypher("MATCH (r:IngestRun) RETURN count(r) AS n") == [{"n": 2}]


# -- the catch-all at each stage of a document -------------------------------------------------


def test_a_failure_at_each_stage_rejects_that_document_alone(kb, docs, capsys):
    """Parse: bad bytes. Identity: hand-made evidence whose title_norm is a list, so the
    identity of the work that matches it cannot be built (a Python error inside the write
    transaction, the kind that used to stop the run). Write: a server-side constraint that
    the page's sources break. Each in its own batch and each rejected alone."""
    cards = sorted(docs.glob("card_*"))
    page = next(docs.glob("page_*"))
    (docs / "card_0000_binary.txt").write_bytes(b"# A title\n\x00\x01")
    victim = docs / "card_victim.txt"  # an invented card whose paper no other document mentions
    shutil.copy(FIXTURES / "card_minimal.txt", victim)
    kb.execute(
        "CREATE (:Evidence {key: 'hand-made', arxiv_id: '2412.00004', title_norm: ['not', 'a', 'string']})"
        "-[:OF]->(:Paper {paper_id: 'hand-made', arxiv_id: '2412.00004'})"
    )
    kb.execute("CREATE CONSTRAINT test_one_source_per_first_author FOR (s:Source) REQUIRE s.first_author IS UNIQUE")
    try:
        assert main(["ingest", str(docs), "--json", "--batch", "4"]) == 1
    finally:
        kb.execute("DROP CONSTRAINT test_one_source_per_first_author")
    report = report_of(capsys)
    rejected = {name: d["error"] for name, d in by_name(report).items() if d["status"] == "rejected"}
    assert set(rejected) == {"card_0000_binary.txt", victim.name, page.name}
    assert (
        rejected["card_0000_binary.txt"]
        == f"{docs / 'card_0000_binary.txt'}:2: NUL byte: binary data, not a text document"
    )
    assert rejected[victim.name] == f"{victim}: not written: internal error (TypeError): \"unhashable type: 'list'\""
    assert rejected[page.name].startswith(f"{page}: not written: ") and "first_author" in rejected[page.name]
    assert landed(kb) == {str(card) for card in cards}
    assert report["totals"]["rejected"] == 3 and report["totals"]["new"] == len(cards)


# -- discovery: loops, odd names, unlisted directories, special files --------------------------


def test_a_symbolic_link_loop_is_skipped_and_the_rest_lands(kb, docs, capsys):
    (docs / "a").symlink_to(docs / "b")
    (docs / "b").symlink_to(docs / "a")
    assert main(["sync", str(docs), "--json"]) == 0
    assert report_of(capsys)["totals"]["new"] == 31
    assert len(landed(kb)) == 31


def test_a_file_name_that_is_not_utf8_is_rejected_in_one_printable_line(kb, docs):
    odd = os.fsencode(docs) + b"/x\xff.txt"
    shutil.copy(next(docs.glob("card_*")), odd)
    result = run("ingest", str(docs), "--json")
    assert result.returncode == 1, result.stderr
    report = json.loads(result.stdout)
    (rejected,) = [d for d in report["documents"] if d["status"] == "rejected"]
    assert rejected["path"] == f"{docs}/x\\xff.txt"
    assert rejected["error"] == f"{docs}/x\\xff.txt: the file name is not valid UTF-8: rename the file"
    assert report["totals"]["new"] == 31 and len(landed(kb)) == 31


def test_a_directory_that_cannot_be_listed_is_rejected_and_the_rest_lands(kb, docs, capsys):
    # Nested past PATH_MAX (4,096 bytes): listing the deepest directory fails (ENAMETOOLONG),
    # a failure that holds for every user, root too (who can read a mode-000 directory).
    fd = os.open(docs, os.O_RDONLY)
    try:
        for _ in range(18):
            os.mkdir("d" * 250, dir_fd=fd)
            deeper = os.open("d" * 250, os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = deeper
    finally:
        os.close(fd)
    assert main(["sync", str(docs), "--json"]) == 1
    report = report_of(capsys)
    (rejected,) = [d for d in report["documents"] if d["status"] == "rejected"]
    assert rejected["error"].endswith(": cannot list the directory: File name too long")
    assert len(rejected["error"].splitlines()) == 1
    assert report["totals"]["new"] == 31


def test_special_files_are_not_read(kb, docs, capsys):
    os.mkfifo(docs / "card_fifo.txt")
    (docs / "card_device.txt").symlink_to("/dev/zero")
    finished = threading.Event()

    def ingest():
        assert main(["ingest", str(docs), "--json"]) == 0
        finished.set()

    thread = threading.Thread(target=ingest, daemon=True)
    thread.start()
    thread.join(timeout=120)
    if not finished.is_set():  # let a reader stuck on the FIFO go, then fail
        os.close(os.open(docs / "card_fifo.txt", os.O_WRONLY | os.O_NONBLOCK))
        pytest.fail("the ingest waited on a FIFO or a device")
    assert report_of(capsys)["totals"]["new"] == 31


def test_a_fifo_that_replaces_a_document_after_discovery_is_rejected_without_waiting(docs):
    (path, *_) = discover([docs]).files
    path.unlink()
    os.mkfifo(path)
    outcome = []
    reader = threading.Thread(target=lambda: outcome.append(read_document(path, MAX_DOCUMENT_BYTES)), daemon=True)
    reader.start()
    reader.join(timeout=10)
    if reader.is_alive():
        os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
        pytest.fail("reading a FIFO blocked")
    ((result, assertions),) = outcome
    assert assertions is None and result.status == "rejected"
    assert result.error == f"{path}: not a regular file: only regular files are read"


def test_a_file_whose_size_changes_while_it_is_read_is_rejected():
    # /proc files state a size of 0 and hold more: what a file that grows as it is read looks like.
    with pytest.raises(ParseError) as rejected:
        read_regular_file(Path("/proc/self/status"), MAX_DOCUMENT_BYTES)
    assert str(rejected.value) == "/proc/self/status: changed while being read: it is read again on the next run"


# -- links: never followed out of the directory unless asked; retractable when followed ---------


def test_links_out_of_the_directory_are_not_followed_and_no_secret_is_printed(neo4j_instance, kb, docs):
    password = neo4j_instance.password()
    secret = docs.parent / "secret.txt"
    secret.write_text("api-key=Zq8-not-a-document-but-a-secret\n")
    links = {
        "card_password.txt": neo4j_instance.password_file,
        "card_conf.txt": neo4j_instance.home / "conf" / "neo4j.conf",
        "card_secret.txt": secret,
    }
    for name, target in links.items():
        (docs / name).symlink_to(target)
    result = run("ingest", str(docs), "--json")
    assert result.returncode == 1
    report = json.loads(result.stdout)
    rejected = {Path(d["path"]).name: d["error"] for d in report["documents"] if d["status"] == "rejected"}
    assert rejected == {
        name: f"{docs / name}: a link to a file outside {docs}: not followed (--follow-links reads it)"
        for name in links
    }
    assert report["totals"]["new"] == 31
    for text in (result.stdout, result.stderr):
        assert password not in text and "Zq8" not in text
    # Asked to follow them, paperkg reads them as documents, rejects them, and quotes none of them.
    followed = run("ingest", str(docs), "--follow-links")
    assert followed.returncode == 1
    assert f"{docs / 'card_password.txt'}:1: unknown document kind" in followed.stderr
    assert f"{docs / 'card_secret.txt'}:1: unknown document kind" in followed.stderr
    assert password not in followed.stderr + followed.stdout and "Zq8" not in followed.stderr + followed.stdout


def test_a_document_reached_through_a_followed_link_is_retracted_when_the_link_goes(kb, docs, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    outside = elsewhere / "card_outside.txt"
    shutil.move(next(docs.glob("card_*")), outside)
    link = docs / "card_linked.txt"
    link.symlink_to(outside)
    report = sync_directory(kb, docs, follow_links=True)
    assert report.ok and report.totals["new"] == 31
    assert str(link) in landed(kb)  # the document is the link, inside the directory
    link.unlink()
    report = sync_directory(kb, docs, follow_links=True)
    assert [(d.path, d.status) for d in report.documents if d.status == "retracted"] == [(str(link), "retracted")]
    assert str(link) not in landed(kb) and len(landed(kb)) == 30


# -- one limit, checked as the file is read ------------------------------------------------------


def test_max_bytes_above_the_default_is_the_only_limit(tmp_path):
    card = tmp_path / "card_big.txt"
    with card.open("w", encoding="utf-8") as handle:
        handle.write(
            "# A card with a long abstract\n\narXiv: https://arxiv.org/abs/2201.00001 · HTML: "
            "https://mlsanity.com/paper/2201.00001/\n\n## Abstract (arXiv)\n\n"
        )
        handle.write("word " * (MAX_DOCUMENT_BYTES // 5 + 1000))
    size = card.stat().st_size
    assert size > MAX_DOCUMENT_BYTES
    result, assertions = read_document(card, size)
    assert (result.status, result.error) == ("new", None) and assertions is not None
    result, _ = read_document(card, size - 1)
    assert result.error == f"{card}: document is {size:,} bytes, over the limit of {size - 1:,}"


def test_a_directory_named_in_bytes_that_are_not_utf8_is_rejected_and_nothing_is_retracted(kb, docs):
    assert sync_directory(kb, docs).ok
    odd = Path(os.fsdecode(os.fsencode(docs.parent) + b"/docs\xff"))
    docs.rename(odd)
    report = sync_directory(kb, odd)
    assert [(d.status, d.error) for d in report.documents] == [
        ("rejected", f"{docs.parent}/docs\\xff: the file name is not valid UTF-8: rename the file")
    ]
    assert len(landed(kb)) == 31
