"""More than one machine: the `neo4j://` scheme (routing) and writes retried on transient errors.

The suite's managed server is a standalone instance; a `neo4j://` driver still asks it for a
routing table (it names itself as writer, reader and router), so reads go through READ routing
and writes through WRITE routing exactly as on a cluster or Aura. The transient error is a real
deadlock between two sessions on that server, never a mocked one.
"""

from __future__ import annotations

import hashlib
import logging
import shutil
import threading
import time
from pathlib import Path

import pytest
from neo4j import Neo4jDriver

from paperkg.db import KnowledgeBase, connect
from paperkg.run.ingest import ingest_paths
from paperkg.server import Instance

from graph_dump import dump

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "corpus"
# A card whose `Builds on` and `Built on by` lists name papers the rest of the corpus holds.
LAST_CARD = "card_2503.04410.txt"
BLOCKED_WAIT = 30.0


@pytest.fixture
def routed(kb: KnowledgeBase, neo4j_instance: Instance):
    """A knowledge base on the (emptied) suite server, connected with `neo4j://`."""
    uri = neo4j_instance.bolt_uri.replace("bolt://", "neo4j://", 1)
    routed = connect(uri=uri, auth=neo4j_instance.auth())
    try:
        yield routed
    finally:
        routed.close()


def test_neo4j_scheme_ingests_and_answers_like_bolt(kb: KnowledgeBase, routed: KnowledgeBase):
    assert isinstance(routed.driver, Neo4jDriver)  # the routing driver, not a direct one
    assert routed.settings.uri.startswith("neo4j://")
    report = ingest_paths(routed, [EXAMPLES])
    assert (report.totals["new"], report.totals["rejected"]) == (21, 0)
    assert routed.stats()["nodes"]["Paper"] == 35
    answer = list(routed.query("paper_claims", paper="2402.06618"))
    assert len(answer) == 13
    # The write's bookmark reached the bookmarks that READ-routed queries wait for.
    assert routed.driver.execute_query_bookmark_manager.get_bookmarks()
    routed_graph = dump(routed)

    kb.reset()
    ingest_paths(kb, [EXAMPLES])
    assert dump(kb) == routed_graph
    assert list(kb.query("paper_claims", paper="2402.06618")) == answer


def _blocked_transactions(kb: KnowledgeBase) -> list[str]:
    rows = kb.cypher(
        "SHOW TRANSACTIONS YIELD transactionId, status WHERE status STARTS WITH 'Blocked' RETURN transactionId"
    )
    return [row["transactionId"] for row in rows]


def test_a_write_that_loses_a_deadlock_is_retried(
    kb: KnowledgeBase, routed: KnowledgeBase, tmp_path: Path, caplog: pytest.LogCaptureFixture
):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for path in sorted(EXAMPLES.glob("*.txt")):
        if path.name != LAST_CARD:
            shutil.copy(path, corpus)
    ingest_paths(routed, [corpus])
    card = EXAMPLES / LAST_CARD
    doc_id = hashlib.sha256(card.read_bytes()).hexdigest()

    # The older transaction holds every paper; the ingest's (younger) transaction writes its
    # Document, then waits for a paper; the older one then asks for that Document: a deadlock,
    # and the server aborts the younger transaction. The driver must retry it.
    reports = []
    with kb.driver.session(database=kb.database) as session, caplog.at_level(logging.WARNING, logger="neo4j"):
        holder = session.begin_transaction()
        try:
            holder.run("MATCH (p:Paper) SET p.deadlock_probe = true").consume()
            writer = threading.Thread(target=lambda: reports.append(ingest_paths(routed, [card])))
            writer.start()
            deadline = time.monotonic() + BLOCKED_WAIT
            while not _blocked_transactions(kb):
                assert time.monotonic() < deadline, "the ingest never waited for the papers held"
                time.sleep(0.05)
            # Returns once the server has aborted the ingest's transaction and freed the Document.
            holder.run("MERGE (d:Document {doc_id: $doc_id})", doc_id=doc_id).consume()
        finally:
            holder.rollback()
        writer.join(timeout=60)
    assert not writer.is_alive()

    retried = [
        record.getMessage()
        for record in caplog.records
        if "will be retried" in record.getMessage() and "DeadlockDetected" in record.getMessage()
    ]
    assert len(retried) >= 1
    [report] = reports
    [result] = report.documents
    assert (result.status, result.error) == ("new", None)
    assert kb.cypher("MATCH (p:Paper) WHERE p.deadlock_probe IS NOT NULL RETURN count(p) AS n") == [{"n": 0}]
    retried_graph = dump(kb)

    kb.reset()
    ingest_paths(kb, [EXAMPLES])
    assert dump(kb) == retried_graph
