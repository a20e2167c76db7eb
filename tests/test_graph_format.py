"""The graph's format stamp: written before a graph's first documents, and the only ground on
which a command refuses a graph as another release's."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from paperkg.cli import main
from paperkg.load.graph_format import GRAPH_FORMAT, RELEASE
from paperkg.run.ingest import ingest_paths

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "corpus"


@pytest.fixture
def corpus(tmp_path) -> Path:
    folder = tmp_path / "corpus"
    folder.mkdir()
    for name in ("card_2107.11820.txt", "page_2405.01127.txt"):
        shutil.copy(EXAMPLES / name, folder / name)
    return folder


def stamps(kb) -> list[dict]:
    return kb.cypher("MATCH (f:GraphFormat) RETURN f.name AS name, f.version AS version, f.written_by AS written_by")


def test_a_new_graph_is_stamped_with_the_format_of_the_release_that_wrote_it(kb, corpus):
    assert stamps(kb) == []
    ingest_paths(kb, [corpus])
    assert stamps(kb) == [{"name": "paperkg", "version": GRAPH_FORMAT, "written_by": RELEASE}]
    ingest_paths(kb, [corpus])  # one stamp, whatever the runs
    assert len(stamps(kb)) == 1


def test_a_graph_of_an_older_format_is_refused_saying_what_a_reset_deletes(kb, corpus, capsys):
    ingest_paths(kb, [corpus])
    kb.execute("MATCH (f:GraphFormat) SET f.version = 1, f.written_by = '0.0.9'")
    before = kb.stats()
    assert main(["ingest", str(corpus)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "written by paperkg 0.0.9 (graph format 1)" in err
    # What is lost comes with the advice: every count the reset deletes.
    papers, claims, documents = (before["nodes"][label] for label in ("Paper", "Claim", "Document"))
    assert (
        f"`paperkg reset --yes` deletes all of it (papers {papers}, claims {claims}, documents {documents}, runs 1 "
        "with their change sets)"
    ) in err
    assert kb.stats() == before


def test_a_graph_of_a_newer_format_asks_for_a_newer_paperkg_and_never_a_reset(kb, corpus, capsys):
    ingest_paths(kb, [corpus])
    kb.execute("MATCH (f:GraphFormat) SET f.version = 99, f.written_by = '9.0.0'")
    assert main(["ingest", str(corpus)]) == 2
    err = capsys.readouterr().err
    assert "written by paperkg 9.0.0 (graph format 99), newer than this" in err and "upgrade paperkg" in err
    assert "reset" not in err


def test_a_graph_from_before_the_stamp_is_stamped_and_added_to(kb, corpus):
    ingest_paths(kb, [corpus])
    kb.execute("MATCH (f:GraphFormat) DELETE f")  # as the release before the stamp left it
    report = ingest_paths(kb, [corpus])
    assert report.totals["unchanged"] == 2
    assert stamps(kb) == [{"name": "paperkg", "version": GRAPH_FORMAT, "written_by": RELEASE}]


def test_papers_without_stamp_or_evidence_are_refused_without_advice_to_delete_them(kb, corpus, capsys):
    kb.execute("CREATE (:Paper {paper_id: 'arxiv:1234.56789', arxiv_id: '1234.56789'})")
    assert main(["ingest", str(corpus)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no paperkg format stamp and no Evidence of paper identity" in err
    assert "reset" not in err
    assert kb.cypher("MATCH (n) RETURN labels(n) AS labels") == [{"labels": ["Paper"]}]  # the lock let go
