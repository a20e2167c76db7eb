"""A run's document results on disk: the same results back, in order, the same counts, the same JSON."""

from __future__ import annotations

import io
import json
from dataclasses import asdict

from paperkg.corpus.results import DocumentResult, DocumentResults
from paperkg.run.report import RunReport


def results() -> list[DocumentResult]:
    return [
        DocumentResult("/c/a.txt", "new", doc_id="aa", counts={"papers": 31, "paper_cites": 30}, warnings=2),
        DocumentResult("/c/b.txt", "unchanged", doc_id="bb"),
        DocumentResult("/c/ü.txt", "rejected", error="/c/ü.txt:7: no title line", line=7),
        DocumentResult("/c/d.txt", "changed", doc_id="dd", counts={"papers": 2, "claims": 5}),
        DocumentResult("/c/e.txt", "retracted", doc_id="ee"),
    ]


def test_results_come_back_in_order_with_their_counts():
    documents = DocumentResults(results()[:2])
    documents.extend(results()[2:4])
    documents.append(results()[4])
    assert list(documents) == results()
    assert list(documents) == results()  # read again: iterating does not consume
    assert len(documents) == 5
    assert documents.statuses == {"new": 1, "unchanged": 1, "rejected": 1, "changed": 1, "retracted": 1}
    assert documents.rows_written == {"papers": 33, "paper_cites": 30, "claims": 5}


def test_adding_after_reading_appends():
    documents = DocumentResults(results()[:1])
    assert [d.path for d in documents] == ["/c/a.txt"]
    documents.extend(results()[1:3])
    assert [d.path for d in documents] == ["/c/a.txt", "/c/b.txt", "/c/ü.txt"]


def test_a_reports_totals_and_rows_come_from_its_results():
    report = RunReport(run_id="r", started_at="t", documents=DocumentResults(results()))
    assert report.totals == {"seen": 4, "new": 1, "changed": 1, "unchanged": 1, "rejected": 1, "retracted": 1}
    assert report.rows_written == {"claims": 5, "paper_cites": 30, "papers": 33}
    assert not report.ok


def test_the_streamed_json_is_the_json_of_the_whole_report():
    for documents in (results(), results()[:1], []):
        report = RunReport(run_id="r", started_at="t", documents=DocumentResults(documents), changes_recorded=3)
        report.graph_change = {"nodes": {"Paper": 33}, "relationships": {}}
        out = io.StringIO()
        report.write_json(out)
        assert out.getvalue() == json.dumps(report.to_dict(), indent=2, ensure_ascii=False) + "\n"
        assert json.loads(out.getvalue())["documents"] == [asdict(d) for d in documents]
