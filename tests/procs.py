"""Helpers for tests that run `paperkg` as a separate process and stop it at chosen points.

A run is stopped at a known point without any hook in paperkg: the test holds a lock in Neo4j
from an open transaction, and the run's statement that needs it waits. Either Neo4j's schema
lock on one label (an uncommitted `CREATE INDEX`): the first write to a node of that label
waits inside its transaction, reads go on; or the ingestion lock's node itself (an uncommitted
`MERGE`): the run waits to take the lock, after its schema setup. The test sees the waiting
statement in `SHOW TRANSACTIONS`, and can then kill the process there.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

# One fixed statement per label (labels are never formatted into Cypher).
_BLOCK = {
    "Paper": "CREATE INDEX reliability_block_paper IF NOT EXISTS FOR (n:Paper) ON (n.reliability_block)",
    "Claim": "CREATE INDEX reliability_block_claim IF NOT EXISTS FOR (n:Claim) ON (n.reliability_block)",
    "IngestRun": "CREATE INDEX reliability_block_run IF NOT EXISTS FOR (n:IngestRun) ON (n.reliability_block)",
}


def start(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen:
    """`paperkg ARGS...` as a child process (stdout and stderr captured as text)."""
    return subprocess.Popen(
        [sys.executable, "-m", "paperkg.cli", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )


def run(*args: str, env: dict[str, str] | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "paperkg.cli", *args], capture_output=True, text=True, env=env, timeout=timeout
    )


def environment(**overrides: str | None) -> dict[str, str]:
    env = dict(os.environ)
    for name, value in overrides.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


def wait_until(
    condition: Callable[[], T], timeout: float = 120, what: str = "condition", proc: subprocess.Popen | None = None
) -> T:
    """The first truthy value of condition(), polled; fails after timeout or when proc exits."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if proc is not None and proc.poll() is not None:
            out, err = proc.communicate()
            raise AssertionError(f"paperkg exited ({proc.returncode}) before {what}:\n{out}\n{err}")
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


HOLD_INGEST_LOCK = "MERGE (l:IngestLock {name: 'ingest'}) SET l.owner = 'a test holding the node'"
HOLD_DOCUMENT = "MERGE (d:Document {doc_id: $doc_id}) SET d.held_by = 'a test holding the node'"


@contextmanager
def open_transaction(kb, statement: str, **parameters) -> Iterator[None]:
    """`statement` run in a transaction that stays open (its locks held) until the block ends,
    then rolled back."""
    with kb.driver.session(database=kb.database) as session:
        tx = session.begin_transaction()
        try:
            tx.run(statement, parameters).consume()
            yield
        finally:
            tx.rollback()


def blocking_writes(kb, label: str):
    """While open, writes of `label` nodes wait for this test (reads go on). Index setup waits
    too (`db.awaitIndexes`), so take it once the run holds the ingestion lock."""
    return open_transaction(kb, _BLOCK[label])


def blocking_the_ingestion_lock(kb):
    """While open, a run waits to take the ingestion lock (its schema setup done)."""
    return open_transaction(kb, HOLD_INGEST_LOCK)


def blocking_document(kb, path):
    """While open, a run holding the ingestion lock waits as it writes the Document of `path`
    (a row lock only: other runs' schema setup goes on)."""
    return open_transaction(kb, HOLD_DOCUMENT, doc_id=hashlib.sha256(Path(path).read_bytes()).hexdigest())


def blocked_statements(kb) -> list[str]:
    """Statements waiting for a lock right now."""
    return [
        row["query"]
        for row in kb.cypher(
            "SHOW TRANSACTIONS YIELD status, currentQuery WHERE status STARTS WITH 'Blocked' "
            "RETURN currentQuery AS query"
        )
    ]


_COUNT = {
    "Paper": "MATCH (n:Paper) RETURN count(n) AS n",
    "Claim": "MATCH (n:Claim) RETURN count(n) AS n",
    "Source": "MATCH (n:Source) RETURN count(n) AS n",
    "Document": "MATCH (n:Document) RETURN count(n) AS n",
    "IngestRun": "MATCH (n:IngestRun) RETURN count(n) AS n",
    "IngestLock": "MATCH (n:IngestLock) RETURN count(n) AS n",
}


def count(kb, label: str) -> int:
    """Committed nodes of a label (from the count store, cheap to poll)."""
    (row,) = kb.cypher(_COUNT[label])
    return row["n"]


def lock_holder(kb) -> dict | None:
    rows = kb.cypher("MATCH (l:IngestLock) RETURN l.pid AS pid, l.host AS host, l.owner AS owner")
    return rows[0] if rows else None
