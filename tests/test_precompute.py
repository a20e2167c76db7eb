"""Precomputed answers (paperkg.run.answers): a stored answer is the query's own answer, never one
the graph has moved past, and ingest and sync keep it current."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import paperkg.run.answers
from paperkg.cli import main
from paperkg.cypher_files import CypherFileError, parse_cypher_file
from paperkg.library import library, load_library, parse_query
from paperkg.load.transactions import retract_documents
from paperkg.run.answers import AnswerError, answers, precompute, precomputed_queries
from paperkg.run.ingest import ingest_paths, sync_directory

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "corpus"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
PRECOMPUTED = [
    "at_risk_claims",
    "claim_cocitation",
    "claim_support_summary",
    "claims",
    "cocitation_pairs",
    "miscited_works",
    "uncited_claims",
    "unsupported_claims",
    "unverifiable_claims",
]


def live(kb, name: str) -> tuple[list[dict], tuple[str, ...]]:
    """The query's answer with its defaults, run by the query itself."""
    query = library().get(name)
    result = library().execute(kb, query, query.bind({}))
    assert result.precomputed_at is None
    return list(result), result.columns


def served(kb, name: str):
    result = kb.query(name)
    return list(result), result.columns, result.precomputed_at


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    """The examples and the invented analysis page, as a directory a sync may change."""
    directory = tmp_path / "corpus"
    shutil.copytree(EXAMPLES, directory)
    for page in (FIXTURES / "analysis").iterdir():
        shutil.copy(page, directory / page.name)
    return directory


def test_the_precomputed_queries_are_the_corpus_wide_ones_whose_cost_grows_with_the_corpus():
    assert [query.name for query in precomputed_queries()] == PRECOMPUTED


def test_a_stored_answer_is_what_the_query_itself_answers(kb, corpus):
    ingest_paths(kb, [corpus])
    before = {name: live(kb, name) for name in PRECOMPUTED}
    assert {name: served(kb, name)[2] for name in PRECOMPUTED} == dict.fromkeys(PRECOMPUTED)  # none stored yet

    computed = precompute(kb)

    assert [answer.query for answer in computed] == PRECOMPUTED
    assert {answer.query: answer.rows for answer in computed} == {name: len(rows) for name, (rows, _) in before.items()}
    for name in PRECOMPUTED:
        rows, columns, precomputed_at = served(kb, name)
        assert precomputed_at is not None, name
        assert (rows, columns) == before[name], name
    # The examples hold rows for every answer but at_risk_claims': no work of theirs has more than
    # the default share (half) of its checked claims unsupported.
    assert [name for name in PRECOMPUTED if not before[name][0]] == ["at_risk_claims"]
    assert kb.query("claims", limit=3).precomputed_at is None  # other parameters: the query runs


def test_a_write_outdates_the_answers_in_its_own_transaction(kb, corpus):
    ingest_paths(kb, [corpus])
    precompute(kb)
    page = next(row["doc_id"] for row in kb.cypher("MATCH (d:Document {kind: 'page'}) RETURN d.doc_id AS doc_id"))

    with kb.session() as session:
        session.execute_write(retract_documents, [page])

    for name in PRECOMPUTED:
        rows, columns, precomputed_at = served(kb, name)
        assert precomputed_at is None, name
        assert (rows, columns) == live(kb, name), name


def test_sync_computes_the_outdated_answers_again(kb, corpus):
    sync_directory(kb, corpus)
    precompute(kb)
    claims_before = served(kb, "claims")[0]
    (corpus / "page_2412.00077.txt").unlink()

    report = sync_directory(kb, corpus)

    assert report.totals["retracted"] == 1
    assert report.answers_refreshed == PRECOMPUTED
    assert report.summary_dict()["answers_refreshed"] == PRECOMPUTED
    stored_seconds = sum(answer["seconds"] for answer in answers(kb))  # each rounded to the millisecond
    assert report.summary_dict()["answers_seconds"] == pytest.approx(stored_seconds, abs=0.02)
    for name in PRECOMPUTED:
        rows, columns, precomputed_at = served(kb, name)
        assert precomputed_at is not None, name
        assert (rows, columns) == live(kb, name), name
    assert served(kb, "claims")[0] != claims_before  # the retracted page's claims left the answer
    assert sync_directory(kb, corpus).answers_refreshed == []  # nothing changed, nothing computed


def test_an_answer_stored_by_another_version_of_the_query_is_not_read(kb, corpus):
    ingest_paths(kb, [corpus])
    precompute(kb, ["cocitation_pairs"])
    kb.execute("MATCH (a:Answer {query: 'cocitation_pairs'}) SET a.rows = '[]', a.fingerprint = 'older'")

    assert served(kb, "cocitation_pairs")[2] is None
    assert [answer.query for answer in precompute(kb, ["claims"])] == ["claims"]
    report = ingest_paths(kb, [corpus])  # unchanged documents: only the older answer is computed again
    assert report.answers_refreshed == ["cocitation_pairs"]
    rows, columns, precomputed_at = served(kb, "cocitation_pairs")
    assert precomputed_at is not None and (rows, columns) == live(kb, "cocitation_pairs")


def test_an_answer_that_cannot_be_stored_leaves_the_run_landed_and_says_why(kb, corpus, tmp_path, monkeypatch):
    queries = tmp_path / "queries"
    queries.mkdir()
    (queries / "when.cypher").write_text(
        "// name: when\n// When it ran.\n//\n// precomputed\n// column at — the time\nRETURN datetime() AS at\n"
    )
    monkeypatch.setattr(paperkg.run.answers, "library", lambda: load_library(queries))
    cannot = "when: its answer holds a datetime value, which a stored answer cannot hold"
    with pytest.raises(AnswerError, match=f"^{cannot}$"):
        precompute(kb)
    kb.execute("CREATE (:Answer {query: 'when', current: false})")  # as if stored, then outdated

    report = ingest_paths(kb, [corpus])

    assert report.totals["new"] == len(list(corpus.iterdir()))
    assert (report.answers_refreshed, report.answers_error) == ([], cannot)
    assert report.summary_dict()["answers_error"] == cannot


def test_precompute_refuses_a_query_that_is_not_precomputed(kb):
    with pytest.raises(AnswerError, match=r"^ancestors: not a precomputed query \(they are: at_risk_claims, "):
        precompute(kb, ["ancestors"])


def test_the_precompute_command_stores_lists_and_drops_answers(kb, corpus, capsys):
    ingest_paths(kb, [corpus])

    assert main(["precompute", "claims", "cocitation_pairs"]) == 0
    stored = capsys.readouterr().out.splitlines()
    assert [line.split(" in ")[0] for line in stored[:2]] == [
        f"claims: {len(live(kb, 'claims')[0])} rows",
        f"cocitation_pairs: {len(live(kb, 'cocitation_pairs')[0])} rows",
    ]
    assert stored[2].startswith("2 answers stored: with their default parameters these queries read them")
    assert main(["precompute", "--list"]) == 0
    assert [line.split(", computed in ")[0] for line in capsys.readouterr().out.splitlines()] == [
        f"claims: current, {len(live(kb, 'claims')[0])} rows",
        f"cocitation_pairs: current, {len(live(kb, 'cocitation_pairs')[0])} rows",
    ]
    kb.execute("MATCH (a:Answer {query: 'claims'}) SET a.current = false")
    assert main(["precompute", "--list"]) == 0
    assert capsys.readouterr().out.startswith("claims: outdated (the query runs itself), ")
    assert main(["precompute", "--drop"]) == 0
    assert capsys.readouterr().out == "2 precomputed answers removed: the queries run themselves again\n"
    assert served(kb, "claims")[2] is None
    assert main(["precompute", "top_papers"]) == 2
    assert capsys.readouterr().err.startswith("paperkg: error: top_papers: not a precomputed query (they are: ")


def test_the_precomputed_line_marks_a_query_once_and_only_one_answering_with_defaults():
    header = "// name: q\n// A question.\n//\n// precomputed\n"
    body = "// column n — a number\n//\n// Neo4j Browser:\n// :param limit => 3;\nRETURN $limit AS n\n"
    assert parse_cypher_file("q.cypher", header + "// param limit: integer = 3 — rows\n" + body).precomputed
    with pytest.raises(CypherFileError, match=r"^q.cypher:5: `precomputed` is declared twice$"):
        parse_cypher_file("q.cypher", header + "// precomputed\n// param limit: integer = 3 — rows\n" + body)
    with pytest.raises(CypherFileError, match="a precomputed query answers with its defaults, but limit has none"):
        parse_query("q.cypher", header + "// param limit: integer — rows\n" + body)
