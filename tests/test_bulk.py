"""`paperkg ingest --bulk`: a first load into an empty graph through the server's import
directory (its graph against `ingest`'s is in tests/differential.py; a load killed halfway in
tests/test_reliability.py)."""

from __future__ import annotations

import json
import os
import shutil
import socket
import time
from pathlib import Path

import pytest
from test_file_hashes import SETTLE

from paperkg.db import connect
from paperkg.limits import BULK_MIN_DOCUMENTS
from paperkg.load import bulk
from paperkg.load.bulk import BulkLoadError
from paperkg.run.ingest import RunOptions, bulk_ingest, ingest_paths, sync_directory
from paperkg.run.lock import IngestLock

from graph_dump import dump
from procs import count, lock_holder, run

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "corpus"


@pytest.fixture
def corpus(tmp_path) -> Path:
    """The examples and one document that cannot be read as either format."""
    corpus = tmp_path / "corpus"
    shutil.copytree(EXAMPLES, corpus)
    (corpus / "page_0000.bad.txt").write_text("# A title\n\nno sections follow\n", encoding="utf-8")
    return corpus


def exports_left(instance) -> list[str]:
    return sorted(path.name for path in (instance.home / "import").glob(f"{bulk.DIRECTORY_PREFIX}*"))


def test_a_bulk_load_reports_each_document_records_its_run_and_leaves_no_export(kb, corpus, neo4j_instance):
    report = bulk_ingest(kb, [corpus])

    documents = len(list(EXAMPLES.iterdir()))
    assert report.totals == {
        "seen": documents + 1,
        "new": documents,
        "changed": 0,
        "unchanged": 0,
        "rejected": 1,
        "retracted": 0,
    }
    (rejected,) = [result for result in report.documents if result.status == "rejected"]
    assert rejected.path == str(corpus / "page_0000.bad.txt") and rejected.line is not None
    assert rejected.error.startswith(f"{corpus / 'page_0000.bad.txt'}:{rejected.line}: ")
    assert sorted(Path(result.path).name for result in report.documents if result.status == "new") == sorted(
        path.name for path in EXAMPLES.iterdir()
    )
    assert report.graph_change["nodes"] == {"Paper": 35, "Claim": 37, "Source": 26, "Document": 21, "IngestRun": 1}
    (run_row,) = kb.cypher(
        "MATCH (r:IngestRun) RETURN r.run_id AS run_id, r.action AS action, r.status AS status, "
        "r.new AS new, r.rejected AS rejected, r.seen AS seen"
    )
    assert run_row == {
        "run_id": report.run_id,
        "action": "import",
        "status": "rejected",
        "new": documents,
        "rejected": 1,
        "seen": documents + 1,
    }
    assert lock_holder(kb) is None and exports_left(neo4j_instance) == []
    # Its change set counts what a first batch ingest's counts.
    kb.reset()
    assert report.changes_recorded == ingest_paths(kb, [corpus]).changes_recorded > 0


def test_ingest_loads_a_corpus_at_the_threshold_into_the_empty_managed_graph_in_bulk(kb, corpus):
    files = len(list(corpus.iterdir()))  # the bad document counts: it is read, then rejected
    assert files < BULK_MIN_DOCUMENTS  # the suite's small corpora go by transactions
    assert ingest_paths(kb, [corpus]).loader == "transactions"
    kb.reset()
    below = ingest_paths(kb, [corpus], RunOptions(bulk_min_documents=files + 1))
    assert below.loader == "transactions" and below.rows_written["papers"] > 0
    kb.reset()

    report = ingest_paths(kb, [corpus], RunOptions(bulk_min_documents=files))

    assert report.loader == "bulk" and report.rows_written == {}  # the export does not count them
    assert report.summary_dict()["loader"] == "bulk"
    assert (report.totals["new"], report.totals["rejected"]) == (files - 1, 1)
    assert kb.cypher("MATCH (r:IngestRun) RETURN r.action AS action, r.loader AS loader") == [
        {"action": "import", "loader": "bulk"}
    ]
    # Into a graph that holds nodes, transactions: they read what the graph holds.
    again = ingest_paths(kb, [corpus], RunOptions(bulk_min_documents=1))
    assert again.loader == "transactions" and again.totals["unchanged"] == files - 1


def test_ingest_takes_transactions_where_the_bulk_path_does_not_apply(kb, neo4j_instance, corpus):
    with connect(uri=neo4j_instance.bolt_uri, auth=neo4j_instance.auth()) as other:  # not the managed server
        assert ingest_paths(other, [corpus], RunOptions(bulk_min_documents=1)).loader == "transactions"
    kb.reset()
    # A run that stores no change set, or follows links, reads and records as the export does not;
    # one asked for transactions (`--transactions`) keeps to them.
    for options in (
        RunOptions(bulk_min_documents=1, record_changes=False),
        RunOptions(bulk_min_documents=1, follow_links=True),
        RunOptions(bulk_min_documents=1, transactions=True),
    ):
        assert ingest_paths(kb, [corpus], options).loader == "transactions"
        kb.reset()


def test_a_sync_after_a_bulk_load_finds_every_document_unchanged_without_reading_it(kb, tmp_path, short_racy_window):
    corpus = tmp_path / "corpus"
    shutil.copytree(EXAMPLES, corpus)
    time.sleep(SETTLE)
    bulk_ingest(kb, [corpus])
    loaded = dump(kb)

    again = sync_directory(kb, corpus)

    assert again.totals["unchanged"] == again.totals["seen"] == len(list(EXAMPLES.iterdir()))
    assert again.unchanged_not_read == again.totals["seen"]
    assert dump(kb) == loaded


def test_a_bulk_load_refuses_a_graph_that_holds_nodes(kb, corpus):
    ingest_paths(kb, [EXAMPLES / "card_1906.01234.txt"])
    before = dump(kb)

    with pytest.raises(BulkLoadError, match=r"^--bulk loads into an empty graph, and this one holds nodes"):
        bulk_ingest(kb, [corpus])
    assert dump(kb) == before and lock_holder(kb) is None


def test_a_bulk_load_needs_the_managed_server(kb, neo4j_instance, corpus):
    with (
        connect(uri=neo4j_instance.bolt_uri, auth=neo4j_instance.auth()) as other,
        pytest.raises(BulkLoadError, match="managed Neo4j's import directory, and NEO4J_URI names another"),
    ):
        bulk_ingest(other, [corpus])
    assert count(kb, "Document") == 0


def test_a_bulk_load_that_fails_removes_what_it_wrote(kb, corpus, neo4j_instance, monkeypatch):
    # The real script, then a statement the server fails: everything before it has committed.
    script = bulk.checked_script
    monkeypatch.setattr(bulk, "checked_script", lambda *args: (*script(*args), "RETURN 1 / 0 AS failed"))

    with pytest.raises(BulkLoadError, match=r"^the bulk load failed and what it wrote is removed: .*/ by zero"):
        bulk_ingest(kb, [corpus])
    assert kb.cypher("MATCH (n) RETURN count(n) AS nodes") == [{"nodes": 0}]
    assert exports_left(neo4j_instance) == []


def test_the_command_prints_the_run_and_one_line_per_rejected_document(kb, corpus):
    result = run("ingest", "--bulk", str(corpus))
    assert result.returncode == 1  # a document was rejected
    assert result.stderr.startswith(f"paperkg: rejected: {corpus / 'page_0000.bad.txt'}:")
    assert result.stderr.count("\n") == 1
    assert result.stdout.splitlines() == [
        "22 documents, loaded in bulk: 21 new, 0 changed, 0 unchanged, 1 rejected",
        "graph: nodes +35 Paper, +37 Claim, +26 Source, +21 Document; relationships +101 CITES, +37 MAKES, "
        "+21 CHECKED_AGAINST, +12 SUPPORTS, +26 REFERS_TO, +217 MENTIONS",
    ]
    again = run("ingest", "--bulk", str(corpus))
    assert again.returncode == 2 and again.stdout == ""  # a usage error
    assert again.stderr == (
        "paperkg: error: --bulk loads into an empty graph, and this one holds nodes: ingest without --bulk\n"
    )
    summary = json.loads(run("sync", str(corpus), "--json").stdout)["totals"]
    assert (summary["unchanged"], summary["new"]) == (21, 0)
    both = run("ingest", "--bulk", "--transactions", str(corpus))
    assert both.returncode == 2 and "argument --transactions: not allowed with argument --bulk" in both.stderr


def test_a_bulk_load_interrupted_after_it_began_writing_removes_what_it_wrote(kb, corpus, monkeypatch):
    def interrupted(kb, loader):
        raise KeyboardInterrupt  # as Ctrl-C would, once every file has been loaded

    monkeypatch.setattr(bulk, "record_import", interrupted)
    with pytest.raises(KeyboardInterrupt):
        bulk_ingest(kb, [corpus])
    assert kb.cypher("MATCH (n) RETURN count(n) AS nodes") == [{"nodes": 0}]


def test_a_lock_marking_an_unfinished_load_outlives_its_release_and_its_next_holder_removes_the_load(kb):
    ingest_paths(kb, [EXAMPLES])
    with IngestLock(kb) as lock:
        lock.mark_unfinished_load("a-load-that-could-not-be-removed")
    assert lock_holder(kb) is not None  # kept, marked, past its holder's release

    with IngestLock(kb, stale_after=0):  # taken over (its heartbeat taken as stale)
        assert kb.cypher("MATCH (n) WHERE NOT n:IngestLock RETURN count(n) AS nodes") == [{"nodes": 0}]
    assert lock_holder(kb) is None


def test_a_bulk_load_marks_the_lock_before_its_export_and_an_interrupted_export_leaves_nothing(
    kb, corpus, neo4j_instance, monkeypatch
):
    seen = []

    def interrupted(directory):  # once the export is written, before anything is loaded
        (lock,) = kb.cypher("MATCH (l:IngestLock) RETURN l.unfinished_load AS load")
        seen.append((lock["load"], directory.is_dir()))
        raise KeyboardInterrupt

    monkeypatch.setattr(bulk, "exported_documents", interrupted)
    with pytest.raises(KeyboardInterrupt):
        bulk_ingest(kb, [corpus])
    ((load, exported),) = seen
    assert load is not None and exported  # a load killed here is undone by the next holder
    assert exports_left(neo4j_instance) == [] and lock_holder(kb) is None
    assert kb.cypher("MATCH (n) RETURN count(n) AS nodes") == [{"nodes": 0}]


def test_stats_reports_a_running_bulk_load_until_the_next_holder_removes_it(kb):
    ingest_paths(kb, [EXAMPLES])
    with IngestLock(kb) as lock:
        lock.mark_unfinished_load("a-load-that-stopped")
    marked = run("stats")
    assert marked.returncode == 0 and "node          Paper" in marked.stdout
    assert marked.stderr == (  # its holder, this process, is alive: the load is running
        f"paperkg: a bulk load (run a-load-that-stopped, pid {os.getpid()} on {socket.gethostname()}) is running "
        "and has not finished\n"
    )
    with IngestLock(kb, stale_after=0):  # taken over, as from a holder that died
        pass
    assert run("stats").stderr == ""
