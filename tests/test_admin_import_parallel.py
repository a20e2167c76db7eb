"""`paperkg export --admin-import` over several processes writes the files one process writes."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest

from paperkg.cli import main
from paperkg.graph.identity import RANK_CARD_ITEM, Evidence
from paperkg.graph.rows import Unit
from paperkg.load import admin_import
from paperkg.load.admin_import import LOCK_FILE, NODES, RELATIONSHIPS, STAMP_FILE, ExportError, export_admin_import

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"
PER_RUN = ("run_id:string", "ingested_at:datetime")  # documents.csv: each export's own


@pytest.fixture
def corpus(tmp_path) -> Path:
    """The examples and the fixture documents in one directory, two bad documents among them
    (files are read in name order)."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for source in [*sorted((ROOT / "examples" / "corpus").iterdir()), *sorted((FIXTURES / "changes").iterdir())]:
        shutil.copy(source, corpus / source.name)
    for source in sorted((FIXTURES / "parse").iterdir()):
        shutil.copy(source, corpus / f"fixture_{source.name}")
    shutil.copy(FIXTURES / "planted_formatted_cypher.txt", corpus / "card_0000.bad.txt")
    (corpus / "page_0000.bad.txt").write_text("# A title\n\nno sections follow\n", encoding="utf-8")
    return corpus


def rows_without_run(path: Path, per_run: tuple[str, ...] = PER_RUN) -> list[list[str]]:
    with open(path, encoding="utf-8", newline="") as handle:
        header, *rows = csv.reader(handle)
    kept = [index for index, name in enumerate(header) if name not in per_run]
    assert len(kept) == len(header) - len(per_run)
    return [[row[index] for index in kept] for row in [header, *rows]]


def test_two_processes_write_the_files_of_one(corpus, tmp_path, monkeypatch):
    # Chunks of a few documents: the first pass's chunks are spread over both workers.
    monkeypatch.setattr(admin_import, "CHUNK_DOCUMENTS", 3)
    one = export_admin_import([corpus], tmp_path / "one", processes=1)
    two = export_admin_import([corpus], tmp_path / "two", processes=2)

    assert [Path(result.path).name for result in one.rejected] == ["card_0000.bad.txt", "page_0000.bad.txt"]
    assert two.rejected == one.rejected
    assert one.documents == len(list(corpus.iterdir())) - 2
    assert (two.documents, two.nodes, two.relationships) == (one.documents, one.nodes, one.relationships)
    files = sorted(path.name for path in (tmp_path / "one").iterdir())
    assert sorted(path.name for path in (tmp_path / "two").iterdir()) == files  # no part file left
    bookkeeping = [LOCK_FILE, STAMP_FILE]  # each export's own: its run, its time
    graph_files = [name for name in files if name.endswith(".csv") and name not in bookkeeping]
    assert len(graph_files) == len(NODES) + len(RELATIONSHIPS) and set(bookkeeping) <= set(files)
    for name in graph_files:
        if name == "documents.csv":
            assert rows_without_run(tmp_path / "two" / name) == rows_without_run(tmp_path / "one" / name)
        else:
            assert (tmp_path / "two" / name).read_bytes() == (tmp_path / "one" / name).read_bytes(), name
    assert len(rows_without_run(tmp_path / "one" / "documents.csv")) == one.documents + 1


def test_the_rows_are_the_same_whatever_the_spills_partitions(corpus, tmp_path, monkeypatch):
    # A large corpus's partitions (spill_partitions) hold other keys together than a small one's:
    # each file's rows come in another order, and are the same rows.
    few = export_admin_import([corpus], tmp_path / "few", processes=2)
    monkeypatch.setattr(admin_import, "spill_partitions", lambda documents: 61)
    many = export_admin_import([corpus], tmp_path / "many", processes=2)

    assert (many.nodes, many.relationships) == (few.nodes, few.relationships)
    for name in ["papers.csv", "claims.csv", "sources.csv", "paper_cites.csv", "makes.csv", "claim_cites.csv"]:
        in_few, in_many = (rows_without_run(tmp_path / out / name, per_run=()) for out in ("few", "many"))
        assert in_many[0] == in_few[0] and sorted(in_many[1:]) == sorted(in_few[1:]), name
        assert len(in_few) > 2, name
    assert (tmp_path / "many" / "papers.csv").read_bytes() != (tmp_path / "few" / "papers.csv").read_bytes()


@pytest.mark.parametrize("processes", [1, 2])
def test_an_error_in_a_worker_is_one_line(corpus, tmp_path, monkeypatch, capsys, processes):
    def fails(records, out):
        raise ExportError("papers: no column for invented (add it to admin_import)")

    monkeypatch.setattr(admin_import, "_write_partition", fails)
    code = main(["export", "--admin-import", str(tmp_path / "out"), str(corpus), "--processes", str(processes)])
    assert code != 0
    err = capsys.readouterr().err
    assert err == "paperkg: error: papers: no column for invented (add it to admin_import)\n"


def test_processes_are_at_least_one(corpus, tmp_path):
    with pytest.raises(ExportError, match="at least 1"):
        export_admin_import([corpus], tmp_path / "out", processes=0)


def unit(evidence: Evidence) -> Unit:
    """A document's unit of this evidence, as the export's second pass maps it to its paper."""
    return Unit(evidence, RANK_CARD_ITEM, {}, [])


def test_the_paper_table_gives_each_units_evidence_its_paper_from_the_file(tmp_path):
    # A thousand keys in 4,096 slots: some share a first slot, and are found a probe further.
    evidence = [Evidence(f"2101.{n:05d}", None, f"title {n}", 2021) for n in range(1000)]
    writer = admin_import._PaperTableWriter(len(evidence))
    papers = [writer.add_paper(f"arxiv:2101.{n:05d}") for n in range(0, 1000, 100)]
    for n, e in enumerate(evidence):
        writer.add(e.key, papers[n // 100])
    writer.write(tmp_path / "papers.table")
    table = admin_import._PaperTable(tmp_path / "papers.table")
    try:
        found = [table.paper_of(unit(e)) for e in evidence]
        assert found == [f"arxiv:2101.{n // 100 * 100:05d}" for n in range(1000)]
        with pytest.raises(KeyError):
            table.paper_of(unit(Evidence(None, "10.1000/absent", None, None)))
    finally:
        table.close()


def test_two_evidence_with_one_key_cannot_be_exported(tmp_path):
    writer = admin_import._PaperTableWriter(2)
    paper = writer.add_paper("doi:10.1000/one")
    writer.add("00000000000000ff", paper)
    with pytest.raises(ExportError, match="two different evidence share the key 00000000000000ff"):
        writer.add("00000000000000ff", paper)


@pytest.mark.parametrize(
    ("chunk_ends", "count", "ranges"),
    [
        ([10, 20, 30, 40], 2, [(0, 20), (20, 40)]),
        ([10, 20, 30, 40], 1, [(0, 40)]),
        ([10, 20, 30, 40], 3, [(0, 20), (20, 30), (30, 40)]),
        ([100, 101, 102], 2, [(0, 100), (100, 102)]),
        ([0, 0, 10], 2, [(0, 10)]),  # chunks of rejected documents spool nothing
        ([], 2, []),
    ],
)
def test_the_second_pass_cuts_the_spool_at_chunk_ends_into_ranges_of_about_equal_bytes(chunk_ends, count, ranges):
    assert admin_import._ranges(chunk_ends, count) == ranges


@pytest.mark.parametrize(
    ("count", "processes", "chunks"),
    [
        (12, 1, [(0, 6), (6, 9), (9, 10), (10, 11), (11, 12)]),
        (12, 2, [(0, 3), (3, 5), (5, 6), (6, 7), (7, 8), (8, 9), (9, 10), (10, 11), (11, 12)]),
        (1, 2, [(0, 1)]),
        (0, 2, []),
    ],
)
def test_the_first_pass_reads_every_document_once_in_chunks_that_shrink_towards_the_end(count, processes, chunks):
    assert list(admin_import.document_chunks(count, processes)) == chunks


def test_the_first_pass_chunks_are_chunk_documents_long_until_the_last_processes_share(monkeypatch):
    monkeypatch.setattr(admin_import, "CHUNK_DOCUMENTS", 50)
    chunks = list(admin_import.document_chunks(2020, 2))
    assert chunks[0] == (0, 50) and chunks[-1] == (2019, 2020)
    assert [start for start, _ in chunks[1:]] == [stop for _, stop in chunks[:-1]]
    sizes = [stop - start for start, stop in chunks]
    assert sizes == sorted(sizes, reverse=True)
    assert sizes.count(50) == 37  # while 4 × 50 documents or more remain: 2,020 - 37 × 50 = 170
