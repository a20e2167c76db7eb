"""An ingestion run: find documents, skip unchanged ones, parse, map, write, record the run.

Data flows one way: read file → parse to models (paperkg.parse) → assertions with
keys (paperkg.graph.rows) → identity and rows written per batch (paperkg.load.transactions).
A document that fails to parse or to write is rejected alone; the others still land.
"""

from __future__ import annotations

import gc
import os
import sys
import threading
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from queue import Queue
from typing import Any

from neo4j.exceptions import DatabaseUnavailable, DriverError, Neo4jError, ServiceUnavailable, SessionExpired
from tqdm import tqdm

from paperkg.corpus.discovery import Discovery, discover, shown
from paperkg.corpus.files import FileHashes, cache_path
from paperkg.corpus.reading import internal_error, read_document
from paperkg.corpus.results import DocumentResult, DocumentResults
from paperkg.cypher_files import statement
from paperkg.db import ConnectionFailed, KnowledgeBase, first_line, log
from paperkg.errors import PaperkgError
from paperkg.graph.batch import Batch, Pending, chunks, prepare_batch
from paperkg.graph.changes import ChangeLog
from paperkg.limits import DOCS_PER_TRANSACTION, MAX_DOCUMENT_BYTES
from paperkg.load.schema import apply_schema
from paperkg.load.transactions import BatchResult, retract_documents, write_batch
from paperkg.run.answers import AnswerError
from paperkg.run.answers import refresh as refresh_answers
from paperkg.run.lock import IngestLock
from paperkg.run.report import RunReport, graph_change, now

# A batch also ends at this many bytes of documents: a claim-check page is many times a card,
# and a batch of pages (parsed ahead) must not grow memory with the corpus (docs/performance.md).
BYTES_PER_TRANSACTION = 2 * 1024 * 1024
HASH_LOOKUP_BATCH = 1000
YOUNG_COLLECTION_EVERY = 10  # batches; see _collected_per_batch
FULL_COLLECTION_EVERY = 100
RUN_ERROR_CHARS = 500  # of a failed run's error, kept on its IngestRun


class GraphOutdated(PaperkgError):
    """The graph was written by an earlier paperkg whose identity this one cannot extend."""


def ingest_paths(
    kb: KnowledgeBase,
    paths: Iterable[str | os.PathLike],
    *,
    progress: bool = False,
    docs_per_transaction: int = DOCS_PER_TRANSACTION,
    max_bytes: int = MAX_DOCUMENT_BYTES,
    lock_wait: float = 0.0,
    prune: bool = False,
    follow_links: bool = False,
    record_changes: bool = True,
    checksum: bool = False,
) -> RunReport:
    """Ingest files and directories; returns the run's report (also recorded as an IngestRun node).

    Holds the ingestion lock for the run (waiting up to ``lock_wait`` seconds for it). With
    ``prune``, documents once ingested from below the given directories whose files are gone
    are retracted: what only they asserted leaves the graph. ``follow_links``: see discover.
    ``record_changes``: store each transaction's change set with it (`paperkg changes`).
    ``checksum``: read and hash every file, even those whose size and times say they are what
    they were when last read (paperkg.corpus.files).
    """
    paths = [Path(path) for path in paths]
    discovery = discover(paths, follow_links=follow_links)
    apply_schema(kb)
    if kb.read("graph_outdated")[0]["outdated"]:
        raise GraphOutdated(
            "the graph was written by an earlier paperkg, which kept no Evidence of paper "
            "identity: run `paperkg reset --yes`, then ingest the documents again"
        )
    with IngestLock(kb, wait=lock_wait) as lock, FileHashes(cache_path(), checksum) as hashes:
        report = RunReport(run_id=str(uuid.uuid4()), started_at=now(), documents=DocumentResults(discovery.rejected))
        changes = None
        if record_changes:
            report.changes_recorded = 0
            changes = ChangeLog(
                report.run_id,
                datetime.now(UTC).isoformat(timespec="microseconds"),
                whole=kb.read("graph_without_history")[0]["whole"],
            )
        try:
            return _run(
                kb, paths, discovery, report, lock, progress, docs_per_transaction, max_bytes, prune, changes, hashes
            )
        except Exception as exc:
            _record_failure(kb, report, exc)
            raise


def _run(
    kb: KnowledgeBase,
    paths: list[Path],
    discovery: Discovery,
    report: RunReport,
    lock: IngestLock,
    progress: bool,
    docs_per_transaction: int,
    max_bytes: int,
    prune: bool,
    changes: ChangeLog | None,
    hashes: FileHashes,
) -> RunReport:
    before = kb.stats()
    found = _Found()
    _ingest_files(kb, discovery.files, report, lock, progress, docs_per_transaction, max_bytes, found, hashes, changes)
    report.unchanged_not_read = found.not_read
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
    _retract(kb, sorted(stale), report, changes)
    if changes is not None and changes.whole and changes.batches:
        with kb.session() as session:
            report.changes_recorded = session.execute_write(changes.finish_whole)
    if found.moved:
        kb.execute(
            statement("update_document_paths"),
            rows=[{"doc_id": doc_id, "path": path} for doc_id, path in sorted(found.moved.items())],
        )
    _refresh_answers(kb, lock, report)
    report.record(
        kb,
        run_started=changes.run_started if changes else None,
        change_sets=changes.batches if changes else None,
    )
    report.graph_change = graph_change(before, kb.stats())
    return report


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
                "error": (first_line(exc) if str(exc) else type(exc).__name__)[:RUN_ERROR_CHARS],
            },
        )
    except Exception:  # the connection is what failed: the change sets say what was committed
        pass


def sync_directory(kb: KnowledgeBase, directory: str | os.PathLike, **options) -> RunReport:
    """The periodic job: ingest a directory and retract the documents whose files are gone."""
    if not Path(directory).is_dir():
        raise FileNotFoundError(f"{shown(directory)}: not a directory")
    return ingest_paths(kb, [directory], prune=True, **options)


class DocIds:
    """A set of document ids (SHA-256 hex digests), each held as its 32 bytes: a run keeps the id
    of every document it reads, and the hex string costs twice as much (docs/performance.md)."""

    def __init__(self) -> None:
        self._digests: set[bytes] = set()

    def add(self, doc_id: str) -> None:
        self._digests.add(bytes.fromhex(doc_id))

    def __contains__(self, doc_id: object) -> bool:
        try:
            return isinstance(doc_id, str) and bytes.fromhex(doc_id) in self._digests
        except ValueError:  # not a digest: no document read has it
            return False

    def __len__(self) -> int:
        return len(self._digests)


@dataclass
class _Found:
    """What a run learnt of the documents it read, for what it does after writing them."""

    seen: DocIds = field(default_factory=DocIds)  # the files read (new, changed, unchanged)
    replaced: set[str] = field(default_factory=set)  # documents last ingested from a path that now holds another
    moved: dict[str, str] = field(default_factory=dict)  # doc_id → the path it lies at now
    not_read: int = 0  # unchanged documents known by their files' stat alone (paperkg.corpus.files)


def _at_paths(kb: KnowledgeBase, paths: Sequence[str]) -> list[list[Any]]:
    """[doc_id, path, size in bytes] of each document last read from one of `paths`."""
    return kb.read("documents_at_paths", paths=paths)[0]["found"]


def _known(kb: KnowledgeBase, doc_ids: Iterable[str], at_paths: Sequence[list[Any]] = ()) -> list[list[Any]]:
    """[doc_id, path last read from, size in bytes] of each of these documents in the graph,
    beside `at_paths` (rows of `_at_paths`), which need no second lookup: most of a re-ingest's
    documents are found at their paths."""
    found = list(at_paths)
    elsewhere = sorted(set(doc_ids) - {doc_id for doc_id, _, _ in found})
    if elsewhere:
        found += kb.read("documents_with_ids", doc_ids=elsewhere)[0]["found"]
    return found


def _paths_of(kb: KnowledgeBase, doc_ids: set[str]) -> dict[str, str]:
    """Where each of these documents was last read (doc_id → path)."""
    return {doc_id: path for doc_id, path, _ in _known(kb, doc_ids)}


def _gone(
    kb: KnowledgeBase, directories: list[Path], discovery: Discovery, found: _Found, report: RunReport
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


def _retract(kb: KnowledgeBase, doc_ids: list[str], report: RunReport, changes: ChangeLog | None = None) -> None:
    """Withdraw documents that are no longer in the corpus, a batch of them per transaction."""
    for part in _retraction_batches(kb, doc_ids):
        with kb.session() as session:
            result: BatchResult = session.execute_write(retract_documents, part, changes)
        _take_changes(report, result)


def _batch_full(documents: int, size: int, docs_per_transaction: int) -> bool:
    """Whether a batch of `documents` holding `size` bytes of them ends: writes and retractions
    alike end at a number of documents or at BYTES_PER_TRANSACTION."""
    return documents >= docs_per_transaction or size >= BYTES_PER_TRANSACTION


def _retraction_batches(kb: KnowledgeBase, doc_ids: list[str]) -> Iterator[list[str]]:
    """The documents in order, in batches that end as a write's do (`_batch_full`, by their
    content's bytes too): a transaction holds all it deletes, and 200 claim-check pages
    retracted at once overran a 1 GB server's transaction memory."""
    sizes = {doc_id: size or 0 for doc_id, _, size in _known(kb, doc_ids)}
    batch: list[str] = []
    size = 0
    for doc_id in doc_ids:
        batch.append(doc_id)
        size += sizes.get(doc_id, 0)
        if _batch_full(len(batch), size, DOCS_PER_TRANSACTION):
            yield batch
            batch, size = [], 0
    if batch:
        yield batch


def _take_changes(report: RunReport, result: BatchResult) -> None:
    """A committed transaction's identity changes and the size of its change set, into the run's report."""
    report.identity.update({"merged": result.merged, "split": result.split})
    if result.whole is not None:  # a whole run keeps no entries: its set's count so far
        report.changes_recorded = result.whole
    elif report.changes_recorded is not None:
        report.changes_recorded += len(result.changes)


def _ingest_files(
    kb: KnowledgeBase,
    files: Sequence[Path],
    report: RunReport,
    lock: IngestLock,
    progress: bool,
    docs_per_transaction: int,
    max_bytes: int,
    found: _Found,
    hashes: FileHashes,
    changes: ChangeLog | None = None,
) -> None:
    bar = tqdm(total=len(files), unit="doc", desc="ingest", disable=not progress, file=sys.stderr)
    try:
        with _collected_per_batch() as collect:
            for results, batch in _read_batches(kb, files, max_bytes, docs_per_transaction, found, hashes):
                _write(kb, batch, _by_path(results), report, changes)
                report.documents.extend(results)  # once written: a result is final when added
                collect()
                bar.update(len(results))
                lock.heartbeat()
    finally:
        bar.close()


@contextmanager
def _collected_per_batch() -> Iterator[Callable[[], None]]:
    """Pause automatic garbage collection for the run; the function it gives, called after each
    batch, collects now and then. A batch's rows live for its whole transaction, so CPython's
    generational collector promoted them and ran a full collection about once a batch, scanning
    every live object, the run's report and file list included (and it holds the GIL, so the
    reading thread waits too). Rows and parsed documents are freed by reference counting (the
    driver's results, which are cycles, no longer hold the rows: write._send), so what a batch
    leaves to the collector is the driver's few objects: a young collection every
    YOUNG_COLLECTION_EVERY batches frees them, and a full one every FULL_COLLECTION_EVERY
    catches whatever grew old. docs/performance.md has the figures."""
    enabled = gc.isenabled()
    gc.disable()
    batches = 0

    def collect() -> None:
        nonlocal batches
        batches += 1
        if batches % FULL_COLLECTION_EVERY == 0:
            gc.collect(2)
        elif batches % YOUNG_COLLECTION_EVERY == 0:
            gc.collect(0)

    try:
        yield collect
    finally:
        if enabled:
            gc.enable()


def _read_batches(
    kb: KnowledgeBase,
    files: Sequence[Path],
    max_bytes: int,
    docs_per_transaction: int,
    found: _Found,
    hashes: FileHashes,
) -> Iterator[tuple[list[DocumentResult], Batch]]:
    """read_document for each file, in order, in batches prepared for writing (with the
    results of the documents read for them: those that need no write may come before those of
    documents read earlier that wait for their batch), by a thread that stays one batch ahead: the
    next batch is parsed and prepared while the server writes this one (the driver releases
    the GIL while it waits), and no more than two batches are in memory. The documents last read
    from the files' paths are looked up by a third thread while the reader hashes the files
    (or takes their hashes from `hashes`)."""
    done = object()
    queue: Queue = Queue()
    room = threading.Semaphore(1)  # taken to read a batch, given back when the batch is taken
    stop = threading.Event()
    lookups = ThreadPoolExecutor(max_workers=1, thread_name_prefix="paperkg-lookup")

    def wait_for_room() -> bool:
        while not room.acquire(timeout=0.1):
            if stop.is_set():
                return False
        return not stop.is_set()

    def read() -> None:
        try:
            results: list[DocumentResult] = []
            pending: list[Pending] = []
            size = 0
            if not wait_for_room():
                return
            for part in chunks(files, HASH_LOOKUP_BATCH):
                at_paths = lookups.submit(_at_paths, kb, [str(path) for path in part])  # while hashing
                digests = hashes.digests(part, max_bytes)
                rows = _known(kb, [d.sha256 for d in digests if d.sha256], at_paths.result())
                known = {doc_id: path for doc_id, path, _ in rows}
                held = {}  # path → the documents last ingested from it
                for doc_id, path, _ in rows:
                    held.setdefault(path, set()).add(doc_id)
                for path, digest in zip(part, digests):
                    if stop.is_set():
                        return
                    result, assertions = read_document(
                        path, max_bytes, known.keys() if digest.sha256 else set(), str(path) in held, digest.sha256
                    )
                    results.append(result)
                    found.not_read += digest.cached and result.status == "unchanged"
                    if result.doc_id and result.status != "rejected":
                        found.seen.add(result.doc_id)
                        found.replaced |= held.get(str(path), set()) - {result.doc_id}
                        if result.status == "unchanged" and known.get(result.doc_id) != str(path):
                            found.moved[result.doc_id] = str(path)
                    if assertions is not None:
                        pending.append(Pending(assertions))
                        size += assertions.size_bytes
                    if _batch_full(len(pending), size, docs_per_transaction):
                        queue.put((results, _prepared(pending, _by_path(results))))
                        results, pending, size = [], [], 0
                        if not wait_for_room():
                            return
                    elif len(results) >= HASH_LOOKUP_BATCH:
                        # The results that wait for no write are reported after as many as one
                        # hash lookup, so that a run of unchanged documents still moves the
                        # progress bar; the documents to write wait for the rest of their batch
                        # (a sync's few changes spread over the corpus are one transaction).
                        writing = {one.assertions.path for one in pending}
                        final = [result for result in results if result.path not in writing]
                        results = [result for result in results if result.path in writing]
                        queue.put((final, prepare_batch([])))
                        if not wait_for_room():
                            return
            if results:
                queue.put((results, _prepared(pending, _by_path(results))))
            queue.put(done)
        except BaseException as exc:  # re-raised in the writing thread
            queue.put(exc)

    reader = threading.Thread(target=read, name="paperkg-read", daemon=True)
    reader.start()
    try:
        while (item := queue.get()) is not done:
            if isinstance(item, BaseException):
                raise item
            room.release()
            yield item
    finally:
        stop.set()
        reader.join()
        lookups.shutdown()


def _prepared(pending: list[Pending], results: dict[str, DocumentResult]) -> Batch:
    """The batch of `pending`, prepared; a document whose mentions cannot be grouped into works
    is rejected (its result updated) and left out, the others still prepared together."""
    try:
        return prepare_batch(pending)
    except Exception as exc:
        if len(pending) == 1:
            _reject(results[pending[0].assertions.path], f"identity not resolved: {internal_error(exc)}")
            return prepare_batch([])
    return prepare_batch([one for one in pending if _prepared([one], results).documents])


def _by_path(results: list[DocumentResult]) -> dict[str, DocumentResult]:
    return {result.path: result for result in results}


def _reject(result: DocumentResult, reason: str) -> None:
    result.status, result.error, result.counts = "rejected", f"{result.path}: {reason}", {}


def _write(
    kb: KnowledgeBase,
    batch: Batch,
    results: dict[str, DocumentResult],
    report: RunReport,
    changes: ChangeLog | None = None,
) -> None:
    """Write a batch in one transaction; if it fails, write its documents one by one to isolate the bad one.
    A lost connection is the run's failure; anything else a document's."""
    if not batch.documents:
        return
    try:
        written = _transaction(kb, batch, report.run_id, changes)
    except (ConnectionFailed, DriverError):
        raise
    except Exception as exc:
        if len(batch.documents) == 1:
            reason = (exc.message or first_line(exc)) if isinstance(exc, Neo4jError) else internal_error(exc)
            _reject(results[batch.documents[0].assertions.path], f"not written: {reason}")
            return
        for one in batch.documents:
            _write(kb, _prepared([one], results), results, report, changes)
        return
    _take_changes(report, written)
    for pending in batch.documents:
        result = results[pending.assertions.path]
        result.counts = dict(sorted(written.counts[pending.assertions.doc_id].items()))


def _transaction(kb: KnowledgeBase, batch: Batch, run_id: str, changes: ChangeLog | None = None) -> BatchResult:
    try:
        # All of a statement's records in one reply (identity lookups return thousands): the
        # default of 1,000 per PULL costs a round trip each (docs/performance.md).
        with kb.session(fetch_size=-1) as session:
            return session.execute_write(write_batch, batch, run_id, changes)
    except (ServiceUnavailable, SessionExpired, DatabaseUnavailable) as exc:
        uri = kb.settings.uri if kb.settings else "the server"
        raise ConnectionFailed(f"lost the connection to Neo4j at {uri} while writing: {first_line(exc)}") from None
