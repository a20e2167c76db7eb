"""An offline import's place in the run history: once the imported graph is finished, the
import is recorded as a run (an `IngestRun`) whose change set is "everything added".

Its change set is a run's whole change set (paperkg/graph/changes.py), with `action: 'import'`:
counts, not entries. The library query `changes_since` reads what it added from the graph
itself: over a window that starts at or before the import, every thing's state before is
absent (the import replaced the whole database) and its state after is the graph's; for the
import's own run, a thing's state after is the graph's unless a later run changed it, when it
is what that run found before it.
"""

from __future__ import annotations

from datetime import UTC, datetime

from neo4j import ManagedTransaction

from paperkg.cypher_files import statement
from paperkg.db import KnowledgeBase
from paperkg.graph.changes import record_whole_changes
from paperkg.write_steps import write_step

IMPORT_ACTION = "import"
IMPORT_LOADER = "admin-import"  # the loader an offline import's run is recorded with (AdminImportLoader)


def record_import(kb: KnowledgeBase, loader: str = IMPORT_LOADER) -> dict[str, int]:
    """Record the run of the import that made this graph, if it is a fresh import (documents,
    no run history), as written by `loader`: each run recorded (none for a graph that has a
    history) with the things its change set counts."""
    write_step()
    with kb.session() as session:
        return session.execute_write(_record, loader)


def _record(tx: ManagedTransaction, loader: str) -> dict[str, int]:
    recorded = {}
    for row in list(tx.run(statement("import_origin"))):
        exported = row["exported"].to_native() if row["exported"] is not None else datetime.now(UTC)
        documents = row["documents"]
        tx.run(
            statement("record_run"),
            run_id=row["run_id"],
            properties={
                "started_at": exported.isoformat(timespec="seconds"),
                "ended_at": datetime.now(UTC).isoformat(timespec="seconds"),
                "seen": documents,
                "new": documents,
                "changed": 0,
                "unchanged": 0,
                "rejected": 0,
                "retracted": 0,
                "status": "ok",
                "action": IMPORT_ACTION,
                "loader": loader,
                "run_started": exported.isoformat(timespec="microseconds"),
                "change_sets": 1,
            },
        ).consume()
        (counted,) = record_whole_changes(
            tx, row["run_id"], exported.isoformat(timespec="microseconds"), IMPORT_ACTION, documents, final=True
        )
        recorded[row["run_id"]] = counted["changes"]
    return recorded
