"""`paperkg ingest --bulk`: a first load, under the lock, through the export and LOAD CSV
(paperkg.load.bulk), with the run's report and record."""

from __future__ import annotations

import os
import shutil
import threading
import uuid
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from neo4j.exceptions import Neo4jError

from paperkg.db import KnowledgeBase, first_line
from paperkg.limits import MAX_DOCUMENT_BYTES
from paperkg.load.admin_import import export_admin_import
from paperkg.load.bulk import DIRECTORY_PREFIX, BulkLoadError, discard_unfinished_load, exported_documents, load_export
from paperkg.load.import_run import IMPORT_ACTION, record_import
from paperkg.load.schema import apply_schema
from paperkg.run.lock import HEARTBEATS_PER_STALE_AFTER, IngestLock
from paperkg.run.report import RunReport, graph_change, now


def bulk_ingest(
    kb: KnowledgeBase,
    paths: Iterable[str | os.PathLike],
    *,
    lock_wait: float = 0.0,
    max_bytes: int = MAX_DOCUMENT_BYTES,
    processes: int | None = None,
) -> RunReport:
    """Load the documents under `paths` into the empty graph of the managed server; the run's
    report, as `ingest_paths` gives it (the documents' mention counts aside: the export does
    not count them per document). `processes`: the export's (default: one per CPU)."""
    instance = kb.managed
    if instance is None:
        raise BulkLoadError(
            "--bulk writes into the managed Neo4j's import directory, and NEO4J_URI names another server: "
            "ingest without --bulk"
        )
    apply_schema(kb)
    with IngestLock(kb, wait=lock_wait) as lock:
        if kb.read("graph_holds_nodes")[0]["holds_nodes"]:
            raise BulkLoadError("--bulk loads into an empty graph, and this one holds nodes: ingest without --bulk")
        report = RunReport(run_id=str(uuid.uuid4()), started_at=now())
        before = kb.stats()
        directory = instance.home / "import" / f"{DIRECTORY_PREFIX}{report.run_id}"
        # Marked from before the export, so that a load killed at any point leaves no export behind.
        lock.mark_unfinished_load(report.run_id)
        try:
            with _heartbeats(lock):
                try:
                    summary = export_admin_import(
                        paths, directory, max_bytes=max_bytes, processes=processes, run_id=report.run_id
                    )
                    report.documents.extend(summary.rejected)
                    report.documents.extend(exported_documents(directory))
                    load_export(kb, directory, report.run_id)
                    apply_schema(kb)  # the derived properties
                    recorded = record_import(kb)
                except BaseException as exc:  # interrupted too: half a graph must not stay
                    # If this fails as well (the server gone), the mark stays with the lock,
                    # which is then not released: the next holder removes what was written.
                    discard_unfinished_load(kb, report.run_id)
                    lock.mark_unfinished_load(None)
                    if isinstance(exc, Neo4jError):
                        raise BulkLoadError(
                            f"the bulk load failed and what it wrote is removed: {first_line(exc)}"
                        ) from None
                    raise
                lock.mark_unfinished_load(None)
        finally:
            shutil.rmtree(directory, ignore_errors=True)
        report.record(kb, action=IMPORT_ACTION)
        report.graph_change = graph_change(before, kb.stats())
        report.changes_recorded = recorded.get(report.run_id)
        return report


@contextmanager
def _heartbeats(lock: IngestLock) -> Iterator[None]:
    """Keep the lock shown alive while the export and the load run (neither returns for minutes
    on a large corpus); a lost lock is raised when they end."""
    stop = threading.Event()
    lost: list[Exception] = []

    def beat() -> None:
        while not stop.wait(lock.stale_after / HEARTBEATS_PER_STALE_AFTER):
            try:
                lock.heartbeat()
            except Exception as exc:  # raised in the caller's thread below
                lost.append(exc)
                return

    thread = threading.Thread(target=beat, name="paperkg-lock-heartbeat", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()
    if lost:
        raise lost[0]
