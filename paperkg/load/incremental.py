"""The transaction loader: documents written a batch a transaction, into a graph that may hold
them already (`paperkg ingest`, `paperkg sync`).

A thread reads ahead: it hashes the files (or takes their hashes from the file-hash cache),
skips the documents the graph holds unchanged, parses the rest and prepares the next batch
while the server writes this one. Each batch is one transaction (paperkg.load.transactions:
identity resolved against the graph, then the rows of paperkg.graph.batch); a batch that fails
is written again a document at a time, so that only the bad document is rejected.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from queue import Queue
from typing import Any

from neo4j.exceptions import DatabaseUnavailable, DriverError, Neo4jError, ServiceUnavailable, SessionExpired

from paperkg.corpus.files import FileHashes
from paperkg.corpus.reading import internal_error, read_document
from paperkg.corpus.results import DocumentResult
from paperkg.cypher_files import statement
from paperkg.db import ConnectionFailed, KnowledgeBase, first_line
from paperkg.graph.batch import Batch, Pending, chunks, prepare_batch
from paperkg.graph.changes import ChangeLog
from paperkg.limits import DOCS_PER_TRANSACTION
from paperkg.load.loader import Loader, LoadOptions, Written
from paperkg.load.transactions import BatchResult, retract_documents, write_batch
from paperkg.write_steps import write_step

# A batch also ends at this many bytes of documents: a claim-check page is many times a card,
# and a batch of pages (parsed ahead) must not grow memory with the corpus
# (docs/benchmarks.md#how-the-write-path-is-fast).
BYTES_PER_TRANSACTION = 2 * 1024 * 1024
HASH_LOOKUP_BATCH = 1000
YOUNG_COLLECTION_EVERY = 10  # batches; see _collected_per_batch
FULL_COLLECTION_EVERY = 100


class TransactionLoader(Loader):
    """Writes documents a batch a transaction; `found` says what it learnt of the files it read,
    for what the run does after (moved files, documents replaced or gone)."""

    name = "transactions"

    def __init__(
        self, kb: KnowledgeBase, hashes: FileHashes, changes: ChangeLog | None, options: LoadOptions | None = None
    ) -> None:
        super().__init__()
        self.kb, self.hashes, self.changes = kb, hashes, changes
        self.options = options or LoadOptions()
        self.found = Found()
        if changes is not None:
            self.written.changes = 0

    def load(self, files: Sequence[Path], run_id: str) -> Iterator[list[DocumentResult]]:
        batches = _read_batches(
            self.kb, files, self.options.max_bytes, self.options.docs_per_transaction, self.found, self.hashes
        )
        with _collected_per_batch() as collect:
            for results, batch in batches:
                _write(self.kb, batch, _by_path(results), run_id, self.written, self.changes)
                yield results  # once written: a result is final when yielded
                collect()

    def finish(self) -> None:
        """The whole run's change set once its last transaction is done, and the paths of the
        documents found unchanged in another file than the one they were last read from."""
        self.written.unchanged_not_read = self.found.not_read
        changes = self.changes
        if changes is not None and changes.whole and changes.batches:
            write_step()
            with self.kb.session() as session:
                self.written.changes = session.execute_write(changes.finish_whole)
        if self.found.moved:
            write_step()
            self.kb.execute(
                statement("update_document_paths"),
                rows=[{"doc_id": doc_id, "path": path} for doc_id, path in sorted(self.found.moved.items())],
            )

    def run_properties(self) -> dict[str, Any]:
        changes = self.changes
        return {
            "run_started": changes.run_started if changes else None,
            "change_sets": changes.batches if changes else None,
        }

    def retract(self, doc_ids: list[str]) -> None:
        """Withdraw documents that are no longer in the corpus, a batch of them per transaction."""
        for part in _retraction_batches(self.kb, doc_ids):
            write_step()
            with self.kb.session() as session:
                result: BatchResult = session.execute_write(retract_documents, part, self.changes)
            _take_changes(self.written, result)


class DocIds:
    """A set of document ids (SHA-256 hex digests), each held as its 32 bytes: a run keeps the id
    of every document it reads, and the hex string costs twice as much
    (docs/benchmarks.md#how-the-write-path-is-fast)."""

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
class Found:
    """What a run learnt of the documents it read, for what it does after writing them."""

    seen: DocIds = field(default_factory=DocIds)  # the files read (new, changed, unchanged)
    replaced: set[str] = field(default_factory=set)  # documents last ingested from a path that now holds another
    moved: dict[str, str] = field(default_factory=dict)  # doc_id → the path it lies at now
    not_read: int = 0  # unchanged documents known by their files' stat alone (paperkg.corpus.files)


def _at_paths(kb: KnowledgeBase, paths: Sequence[str]) -> list[list[Any]]:
    """[doc_id, path, size in bytes] of each document last read from one of `paths`."""
    return kb.read("documents_at_paths", paths=paths)[0]["found"]


def known_documents(kb: KnowledgeBase, doc_ids: Iterable[str], at_paths: Sequence[list[Any]] = ()) -> list[list[Any]]:
    """[doc_id, path last read from, size in bytes] of each of these documents in the graph,
    beside `at_paths` (rows of `_at_paths`), which need no second lookup: most of a re-ingest's
    documents are found at their paths."""
    found = list(at_paths)
    elsewhere = sorted(set(doc_ids) - {doc_id for doc_id, _, _ in found})
    if elsewhere:
        found += kb.read("documents_with_ids", doc_ids=elsewhere)[0]["found"]
    return found


def _batch_full(documents: int, size: int, docs_per_transaction: int) -> bool:
    """Whether a batch of `documents` holding `size` bytes of them ends: writes and retractions
    alike end at a number of documents or at BYTES_PER_TRANSACTION."""
    return documents >= docs_per_transaction or size >= BYTES_PER_TRANSACTION


def _retraction_batches(kb: KnowledgeBase, doc_ids: list[str]) -> Iterator[list[str]]:
    """The documents in order, in batches that end as a write's do (`_batch_full`, by their
    content's bytes too): a transaction holds all it deletes, and 200 claim-check pages
    retracted at once overran a 1 GB server's transaction memory."""
    sizes = {doc_id: size or 0 for doc_id, _, size in known_documents(kb, doc_ids)}
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


def _take_changes(written: Written, result: BatchResult) -> None:
    """A committed transaction's identity changes and the size of its change set, into what the loader wrote."""
    written.identity.update({"merged": result.merged, "split": result.split})
    if result.whole is not None:  # a whole run keeps no entries: its set's count so far
        written.changes = result.whole
    elif written.changes is not None:
        written.changes += len(result.changes)


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
    catches whatever grew old. bench/run.py measures the run's memory (docs/benchmarks.md)."""
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
    found: Found,
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
                rows = known_documents(kb, [d.sha256 for d in digests if d.sha256], at_paths.result())
                known = {doc_id: path for doc_id, path, _ in rows}
                held: dict[str, set[str]] = {}  # path → the documents last ingested from it
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
    run_id: str,
    written: Written,
    changes: ChangeLog | None = None,
) -> None:
    """Write a batch in one transaction; if it fails, write its documents one by one to isolate the bad one.
    A lost connection is the run's failure; anything else a document's."""
    if not batch.documents:
        return
    try:
        done = _transaction(kb, batch, run_id, changes)
    except (ConnectionFailed, DriverError):
        raise
    except Exception as exc:
        if len(batch.documents) == 1:
            reason = (exc.message or first_line(exc)) if isinstance(exc, Neo4jError) else internal_error(exc)
            _reject(results[batch.documents[0].assertions.path], f"not written: {reason}")
            return
        for one in batch.documents:
            _write(kb, _prepared([one], results), results, run_id, written, changes)
        return
    _take_changes(written, done)
    for pending in batch.documents:
        result = results[pending.assertions.path]
        result.counts = dict(sorted(done.counts[pending.assertions.doc_id].items()))


def _transaction(kb: KnowledgeBase, batch: Batch, run_id: str, changes: ChangeLog | None = None) -> BatchResult:
    try:
        # All of a statement's records in one reply (identity lookups return thousands): the
        # default of 1,000 per PULL costs a round trip each (docs/benchmarks.md#how-the-write-path-is-fast).
        write_step()
        with kb.session(fetch_size=-1) as session:
            return session.execute_write(write_batch, batch, run_id, changes)
    except (ServiceUnavailable, SessionExpired, DatabaseUnavailable) as exc:
        uri = kb.settings.uri if kb.settings else "the server"
        raise ConnectionFailed(f"lost the connection to Neo4j at {uri} while writing: {first_line(exc)}") from None
