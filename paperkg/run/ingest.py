"""An ingestion run: find the documents, hold the lock, load them, retract, record the run.

The run discovers the files (paperkg.corpus), picks the loader that writes them (paperkg.load:
the bulk load for a corpus large enough into the managed server's empty graph, the offline
import for a larger one, else transactions; `_loader` is the one place that chooses), retracts
the documents whose files were replaced or are gone, computes the outdated precomputed answers
again, and records itself as an IngestRun. A document that fails to parse or to write is
rejected alone; the others still land.
"""

from __future__ import annotations

import os
import sys
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path

from neo4j.exceptions import DriverError, Neo4jError
from tqdm import tqdm

from paperkg.corpus.discovery import Discovery, discover, shown
from paperkg.corpus.files import FileHashes, cache_path
from paperkg.corpus.results import DocumentResult, DocumentResults
from paperkg.cypher_files import statement
from paperkg.db import ConnectionFailed, KnowledgeBase, first_line, log
from paperkg.graph.changes import ChangeLog
from paperkg.limits import BULK_MIN_DOCUMENTS, DOCS_PER_TRANSACTION, MAX_DOCUMENT_BYTES, OFFLINE_MIN_DOCUMENTS
from paperkg.load.admin_import import AdminImportLoader
from paperkg.load.bulk import BulkLoader, require_managed
from paperkg.load.graph_format import check_graph_format
from paperkg.load.incremental import Found, TransactionLoader, known_documents
from paperkg.load.loader import Loader, LoadOptions
from paperkg.load.schema import apply_schema
from paperkg.run.answers import AnswerError
from paperkg.run.answers import refresh as refresh_answers
from paperkg.run.lock import IngestLock
from paperkg.run.report import RunReport, graph_change, now

RUN_ERROR_CHARS = 500  # of a failed run's error, kept on its IngestRun


@dataclass(frozen=True)
class RunOptions:
    """How a run reads, writes and records.

    ``progress``: a progress bar on stderr. ``docs_per_transaction``, ``max_bytes``, ``processes``:
    see LoadOptions. ``lock_wait``: how long to wait for another run's ingestion lock (seconds).
    ``prune``: documents once ingested from below the given directories whose files are gone
    are retracted (what only they asserted leaves the graph). ``follow_links``: see discover.
    ``record_changes``: store each transaction's change set with it (`paperkg changes`).
    ``checksum``: read and hash every file, even those whose size and times say they are what
    they were when last read (paperkg.corpus.files). ``bulk``: load into the managed server's
    empty graph through the export and LOAD CSV (paperkg.load.bulk), or fail. Without it the
    run takes that path on its own where it is correct and faster: ``bulk_min_documents`` or
    more documents into the managed server's empty graph (see `_loader`), and from
    ``offline_min_documents`` the offline import (paperkg.load.admin_import, which restarts the
    server), unless ``transactions`` keeps it to transactions (memory that follows the batch).
    """

    progress: bool = False
    docs_per_transaction: int = DOCS_PER_TRANSACTION
    max_bytes: int = MAX_DOCUMENT_BYTES
    processes: int | None = None
    lock_wait: float = 0.0
    prune: bool = False
    follow_links: bool = False
    record_changes: bool = True
    checksum: bool = False
    bulk: bool = False
    bulk_min_documents: int = BULK_MIN_DOCUMENTS
    offline_min_documents: int = OFFLINE_MIN_DOCUMENTS
    transactions: bool = False

    @property
    def load(self) -> LoadOptions:
        return LoadOptions(self.max_bytes, self.docs_per_transaction, self.processes)


def ingest_paths(kb: KnowledgeBase, paths: Iterable[str | os.PathLike], options: RunOptions | None = None) -> RunReport:
    """Ingest files and directories; returns the run's report (also recorded as an IngestRun node).
    Holds the ingestion lock for the run (waiting up to ``options.lock_wait`` seconds for it)."""
    options = options or RunOptions()
    if options.bulk:
        require_managed(kb)
    given = [Path(path) for path in paths]
    discovery = discover(given, follow_links=options.follow_links)
    apply_schema(kb)
    with IngestLock(kb, wait=options.lock_wait) as lock, FileHashes(cache_path(), options.checksum) as hashes:
        # Asked once the lock is held: taking it over from a load that died has finished or
        # removed that load, and the stamp is written before the first document.
        check_graph_format(kb)
        report = RunReport(run_id=str(uuid.uuid4()), started_at=now(), documents=DocumentResults(discovery.rejected))
        loader = _loader(kb, lock, hashes, len(discovery.files), report.run_id, options)
        report.loader = loader.name
        try:
            return _run(kb, loader, given, discovery, report, lock, hashes, options)
        except Exception as exc:
            if not loader.undone_on_failure:
                _record_failure(kb, report, exc)
            raise


def sync_directory(kb: KnowledgeBase, directory: str | os.PathLike, options: RunOptions | None = None) -> RunReport:
    """The periodic job: ingest a directory and retract the documents whose files are gone."""
    if not Path(directory).is_dir():
        raise FileNotFoundError(f"{shown(directory)}: not a directory")
    return ingest_paths(kb, [directory], replace(options or RunOptions(), prune=True))


def bulk_ingest(kb: KnowledgeBase, paths: Iterable[str | os.PathLike], options: RunOptions | None = None) -> RunReport:
    """Load the documents under `paths` into the empty graph of the managed server (BulkLoader);
    the run's report, as `ingest_paths` gives it (the documents' mention counts aside: the
    export does not count them per document)."""
    return ingest_paths(kb, paths, replace(options or RunOptions(), bulk=True))


def _loader(
    kb: KnowledgeBase, lock: IngestLock, hashes: FileHashes, documents: int, run_id: str, options: RunOptions
) -> Loader:
    """The run's loader, chosen once its lock is held: the bulk load when asked for (it fails
    where it cannot apply), or when it is correct and faster: into the managed server's graph
    while it holds no nodes but bookkeeping, with `options.bulk_min_documents` documents or
    more, read as the export reads them (no links followed) and recorded as it records them (a
    change set); from `options.offline_min_documents`, the same export imported offline, which
    writes the store directly at the cost of a restart of the server. Otherwise transactions,
    which write into any graph."""
    if options.bulk:
        return BulkLoader(kb, lock, options.load)
    if (
        not options.transactions
        and kb.managed is not None
        and documents >= options.bulk_min_documents
        and not options.follow_links
        and options.record_changes
        and not kb.read("graph_holds_nodes")[0]["holds_nodes"]
    ):
        if documents >= options.offline_min_documents:
            return AdminImportLoader(kb, lock, options=options.load)
        return BulkLoader(kb, lock, options.load)
    return TransactionLoader(kb, hashes, _change_log(kb, run_id, options), options.load)


def _change_log(kb: KnowledgeBase, run_id: str, options: RunOptions) -> ChangeLog | None:
    if not options.record_changes:
        return None
    whole = kb.read("graph_without_history")[0]["whole"]
    return ChangeLog(run_id, datetime.now(UTC).isoformat(timespec="microseconds"), whole=whole)


def _run(
    kb: KnowledgeBase,
    loader: Loader,
    paths: list[Path],
    discovery: Discovery,
    report: RunReport,
    lock: IngestLock,
    hashes: FileHashes,
    options: RunOptions,
) -> RunReport:
    before = kb.stats()
    files = discovery.files
    drawn = options.progress and loader.shows_progress
    bar = tqdm(total=len(files), unit="doc", desc="ingest", disable=not drawn, file=sys.stderr)
    try:
        for part in loader.load(files, report.run_id):
            report.documents.extend(part)
            bar.update(len(part))
            lock.heartbeat()
    finally:
        bar.close()
    if isinstance(loader, TransactionLoader):
        _retract_stale(kb, loader, paths, discovery, report, hashes, options.prune)
    loader.finish()
    report.identity, report.changes_recorded = loader.written.identity, loader.written.changes
    report.unchanged_not_read = loader.written.unchanged_not_read
    _refresh_answers(kb, lock, report)
    report.record(kb, **loader.run_properties())
    report.graph_change = graph_change(before, kb.stats())
    return report


def _retract_stale(
    kb: KnowledgeBase,
    loader: TransactionLoader,
    paths: list[Path],
    discovery: Discovery,
    report: RunReport,
    hashes: FileHashes,
    prune: bool,
) -> None:
    """Retract the documents a file read in this run replaced, and with `prune` those whose files
    are gone from below the directories of `paths`."""
    found = loader.found
    stale = {doc_id for doc_id in found.replaced if doc_id not in found.seen}
    if prune:
        directories = [path.resolve() for path in paths if path.is_dir()]
        present = set(discovery.files.names())
        for directory in directories:
            if directory not in discovery.unlisted:
                hashes.forget_missing(directory, present)
        gone = _gone(kb, directories, discovery, found, report)
        report.documents.extend(
            DocumentResult(path, "retracted", doc_id=doc_id) for doc_id, path in sorted(gone.items())
        )
        stale |= set(gone)
    loader.retract(sorted(stale))


def _refresh_answers(kb: KnowledgeBase, lock: IngestLock, report: RunReport) -> None:
    """Compute the outdated precomputed answers again. The documents have landed whatever
    happens here: an answer the server fails to compute stays outdated (its query runs itself
    until the next run or `paperkg precompute`), and the run says so."""
    try:
        computed = refresh_answers(kb, lock)
        report.answers_refreshed = [answer.query for answer in computed]
        report.answers_seconds = round(sum(answer.seconds for answer in computed), 2)
    except (Neo4jError, AnswerError) as exc:
        report.answers_error = first_line(exc)
        log.warning(f"the precomputed answers were not computed again: {report.answers_error}")


def _record_failure(kb: KnowledgeBase, report: RunReport, exc: BaseException) -> None:
    """Record a run that stopped with an error, when the server still answers: its change sets
    hold what it committed. A lost connection or a run killed outright records nothing more
    (`paperkg runs` still lists its change sets, as a run that did not finish): asking a server
    that is gone would only make the run wait for the driver's retries before it gives up."""
    if isinstance(exc, (ConnectionFailed, DriverError)):
        return
    try:
        kb.execute(
            statement("record_run"),
            run_id=report.run_id,
            properties={
                "started_at": report.started_at,
                "ended_at": now(),
                **report.totals,
                "status": "failed",
                "loader": report.loader,
                "error": (first_line(exc) if str(exc) else type(exc).__name__)[:RUN_ERROR_CHARS],
            },
        )
    except Exception:  # the connection is what failed: the change sets say what was committed
        pass


def _paths_of(kb: KnowledgeBase, doc_ids: set[str]) -> dict[str, str]:
    """Where each of these documents was last read (doc_id → path)."""
    return {doc_id: path for doc_id, path, _ in known_documents(kb, doc_ids)}


def _gone(
    kb: KnowledgeBase, directories: list[Path], discovery: Discovery, found: Found, report: RunReport
) -> dict[str, str]:
    """The documents last read from below `directories` that no file there holds any more
    (doc_id → path); a file that is there but was rejected, or may be in a directory that could
    not be listed, keeps its document."""
    under: set[str] = set()
    for directory in directories:
        if directory not in discovery.unlisted:
            under.update(kb.read("documents_under", prefix=f"{directory}{os.sep}")[0]["doc_ids"])
    present = set(discovery.files.names()) | {result.path for result in report.documents if result.status == "rejected"}
    unread = {doc_id for doc_id in under - found.replaced if doc_id not in found.seen}
    return {
        doc_id: path
        for doc_id, path in _paths_of(kb, unread).items()
        if path not in present and not any(Path(path).is_relative_to(d) for d in discovery.unlisted)
    }
