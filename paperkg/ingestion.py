"""An ingestion run: find documents, skip unchanged ones, parse, map, write, record the run.

Data flows one way: read file → parse to models (paperkg.ingest.parse) → assertions with
keys (paperkg.ingest.rows) → identity and rows written per batch (paperkg.ingest.write).
A document that fails to parse or to write is rejected alone; the others still land.
"""

from __future__ import annotations

import gc
import hashlib
import os
import sys
import threading
import uuid
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from queue import Queue
from typing import Any

from neo4j.exceptions import DatabaseUnavailable, Neo4jError, ServiceUnavailable, SessionExpired
from tqdm import tqdm

from .db import ConnectionFailed, KnowledgeBase, first_line
from .ingest import ParseError, parse_bytes
from .ingest.rows import Assertions, assertions_of
from .ingest.write import Batch, BatchResult, Pending, chunks, prepare_batch, retract_documents, write_batch
from .limits import DOCS_PER_TRANSACTION, MAX_DOCUMENT_BYTES
from .lock import IngestLock
from .schema import apply_schema
from .statements import statement

# A batch also ends at this many bytes of documents: a claim-check page is ~30 times a card,
# and 200 pages in one transaction (and parsed ahead) took the process past 300 MB.
BYTES_PER_TRANSACTION = 2 * 1024 * 1024
HASH_LOOKUP_BATCH = 1000
FULL_COLLECTION_EVERY = 100  # batches; see _collected_per_batch


@dataclass
class DocumentResult:
    path: str
    status: str  # new | changed | unchanged | rejected | retracted (its file is gone; sync only)
    doc_id: str | None = None  # the SHA-256 of its content: a document is its content, wherever it lies
    error: str | None = None
    line: int | None = None
    counts: dict[str, int] = field(default_factory=dict)
    warnings: int = 0


@dataclass
class RunReport:
    run_id: str
    started_at: str
    ended_at: str | None = None
    documents: list[DocumentResult] = field(default_factory=list)
    identity: Counter = field(default_factory=Counter)  # nodes merged into others, nodes split
    # What landed, counted as `paperkg stats` counts: new (or, retracted, fewer) nodes per label
    # and relationships per type. The documents' counts say what each one mentioned.
    graph_change: dict[str, dict[str, int]] = field(default_factory=dict)

    @property
    def totals(self) -> dict[str, int]:
        totals = Counter({"seen": len(self.documents)})
        totals.update(document.status for document in self.documents)
        totals["seen"] -= totals["retracted"]
        return {key: totals.get(key, 0) for key in ("seen", "new", "changed", "unchanged", "rejected", "retracted")}

    @property
    def rows_written(self) -> dict[str, int]:
        total: Counter = Counter()
        for document in self.documents:
            total.update(document.counts)
        return dict(sorted(total.items()))

    @property
    def ok(self) -> bool:
        return self.totals["rejected"] == 0

    def to_dict(self) -> dict[str, Any]:
        return {"run_id": self.run_id, "started_at": self.started_at, "ended_at": self.ended_at,
                "totals": self.totals, "graph_change": self.graph_change, "rows_written": self.rows_written,
                "identity": {"merged": self.identity["merged"], "split": self.identity["split"]},
                "documents": [asdict(document) for document in self.documents]}


class GraphOutdated(Exception):
    """The graph was written by an earlier paperkg whose identity this one cannot extend."""


def discover(paths: Iterable[str | os.PathLike]) -> list[Path]:
    """Files named, and files under directories named (recursively, hidden ones skipped), sorted."""
    found: dict[Path, None] = {}
    for given in paths:
        path = Path(given)
        if path.is_dir():
            found.update((file, None) for _, file in sorted(_files_under(path.resolve())))
        elif path.is_file():
            found[path.resolve()] = None
        else:
            raise FileNotFoundError(f"{path}: no such file or directory")
    return list(found)


def _files_under(directory: str | os.PathLike) -> Iterator[tuple[str, Path]]:
    """(path, resolved path) of each file below a resolved directory, hidden ones skipped; links
    to directories are not followed (as Path.rglob). Only links are resolved: resolving every
    path took a tenth of a scheduled run over an unchanged corpus of 2,000 documents."""
    with os.scandir(directory) as entries:
        for entry in entries:
            if entry.name.startswith("."):
                continue
            if entry.is_dir(follow_symlinks=False):
                yield from _files_under(entry.path)
            elif entry.is_file():
                yield entry.path, Path(entry.path).resolve() if entry.is_symlink() else Path(entry.path)


def ingest_paths(kb: KnowledgeBase, paths: Iterable[str | os.PathLike], *, progress: bool = False,
                 docs_per_transaction: int = DOCS_PER_TRANSACTION, max_bytes: int = MAX_DOCUMENT_BYTES,
                 lock_wait: float = 0.0, prune: bool = False) -> RunReport:
    """Ingest files and directories; returns the run's report (also recorded as an IngestRun node).

    Holds the ingestion lock for the run (waiting up to ``lock_wait`` seconds for it). With
    ``prune``, documents once ingested from below the given directories whose files are gone
    are retracted: what only they asserted leaves the graph.
    """
    paths = [Path(path) for path in paths]
    files = discover(paths)
    apply_schema(kb)
    if kb.cypher(statement("graph_outdated"))[0]["outdated"]:
        raise GraphOutdated("the graph was written by an earlier paperkg, which kept no Evidence of paper "
                            "identity: run `paperkg reset --yes`, then ingest the documents again")
    with IngestLock(kb, wait=lock_wait) as lock:
        report = RunReport(run_id=str(uuid.uuid4()), started_at=_now())
        before = kb.stats()
        found = _Found()
        _ingest_files(kb, files, report, lock, progress, docs_per_transaction, max_bytes, found)
        stale = found.replaced - found.seen
        if prune:
            gone: set[str] = set()
            for directory in (path.resolve() for path in paths if path.is_dir()):
                gone.update(kb.cypher(statement("documents_under"), prefix=f"{directory}{os.sep}")[0]["doc_ids"])
            gone -= found.seen | stale
            report.documents.extend(DocumentResult(path, "retracted", doc_id=doc_id)
                                    for doc_id, path in sorted(found.paths_of(kb, gone).items()))
            stale |= gone
        _retract(kb, sorted(stale), report)
        if found.moved:
            kb.execute(statement("update_document_paths"), rows=[{"doc_id": doc_id, "path": path}
                                                                   for doc_id, path in sorted(found.moved.items())])
        report.ended_at = _now()
        kb.execute(statement("record_run"), run_id=report.run_id, properties={
            "started_at": report.started_at, "ended_at": report.ended_at, **report.totals})
        report.graph_change = _change(before, kb.stats())
        return report


def _change(before: dict[str, dict[str, int]], after: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
    """The counts that differ, per group (nodes, relationships): after minus before."""
    return {group: {name: count - before[group].get(name, 0) for name, count in counts.items()
                    if count != before[group].get(name, 0)}
            for group, counts in after.items()}


def sync_directory(kb: KnowledgeBase, directory: str | os.PathLike, **options) -> RunReport:
    """The periodic job: ingest a directory and retract the documents whose files are gone."""
    if not Path(directory).is_dir():
        raise FileNotFoundError(f"{directory}: not a directory")
    return ingest_paths(kb, [directory], prune=True, **options)


@dataclass
class _Found:
    """What a run learnt of the documents it read, for what it does after writing them."""

    seen: set[str] = field(default_factory=set)  # doc_ids of the files read (new, changed, unchanged)
    replaced: set[str] = field(default_factory=set)  # documents last ingested from a path that now holds another
    moved: dict[str, str] = field(default_factory=dict)  # doc_id → the path it lies at now

    @staticmethod
    def paths_of(kb: KnowledgeBase, doc_ids: set[str]) -> dict[str, str]:
        rows = kb.cypher(statement("documents_known"), doc_ids=sorted(doc_ids), paths=[])[0]["found"]
        return {doc_id: path for doc_id, path in rows}


def _retract(kb: KnowledgeBase, doc_ids: list[str], report: RunReport) -> None:
    """Withdraw documents that are no longer in the corpus, a batch of them per transaction."""
    for part in chunks(doc_ids, DOCS_PER_TRANSACTION):
        with kb.driver.session(database=kb.database) as session:
            result: BatchResult = session.execute_write(retract_documents, part)
        report.identity.update({"merged": result.merged, "split": result.split})


def _ingest_files(kb: KnowledgeBase, files: list[Path], report: RunReport, lock: IngestLock, progress: bool,
                  docs_per_transaction: int, max_bytes: int, found: _Found) -> None:
    bar = tqdm(total=len(files), unit="doc", desc="ingest", disable=not progress, file=sys.stderr)
    try:
        with _collected_per_batch() as collect:
            for results, batch in _read_batches(kb, files, max_bytes, docs_per_transaction, found):
                report.documents.extend(results)
                _write(kb, batch, {result.path: result for result in results}, report)
                collect()
                bar.update(len(results))
                lock.heartbeat()
    finally:
        bar.close()


@contextmanager
def _collected_per_batch() -> Iterator[Callable[[], None]]:
    """Pause automatic garbage collection for the run; the function it gives collects what the
    last batch left. A batch's rows live for its whole transaction, so CPython's generational
    collector promoted them and ran a full collection about once a batch, scanning every live
    object, the run's report and file list included: 8 s of a 55 s ingest of 10k papers,
    83 s of 373 s at 50k (and it holds the GIL, so the reading thread waits too).
    Rows and parsed documents are freed by reference counting; the cycles a batch leaves (the
    driver's results, which hold its rows) are all young, so a young collection frees them,
    and a full one every FULL_COLLECTION_EVERY batches catches whatever grew old."""
    enabled = gc.isenabled()
    gc.disable()
    batches = 0

    def collect() -> None:
        nonlocal batches
        batches += 1
        gc.collect(2 if batches % FULL_COLLECTION_EVERY == 0 else 0)

    try:
        yield collect
    finally:
        if enabled:
            gc.enable()


def _read_batches(kb: KnowledgeBase, files: list[Path], max_bytes: int, docs_per_transaction: int,
                  found: _Found) -> Iterator[tuple[list[DocumentResult], Batch]]:
    """read_document for each file, in order, in batches prepared for writing (with the
    results of the documents read for them), by a thread that stays one batch ahead: the
    next batch is parsed and prepared while the server writes this one (the driver releases
    the GIL while it waits), and no more than two batches are in memory."""
    done = object()
    queue: Queue = Queue()
    room = threading.Semaphore(1)  # taken to read a batch, given back when the batch is taken
    stop = threading.Event()

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
                digests = [_file_digest(path) for path in part]
                rows = kb.cypher(statement("documents_known"), doc_ids=[d for d in digests if d],
                                 paths=[str(path) for path in part])[0]["found"]
                known = {doc_id: path for doc_id, path in rows}
                held = {}  # path → the documents last ingested from it
                for doc_id, path in rows:
                    held.setdefault(path, set()).add(doc_id)
                for path, digest in zip(part, digests):
                    if stop.is_set():
                        return
                    result, assertions = read_document(path, max_bytes, set(known) if digest else set(),
                                                       replacing=str(path) in held)
                    results.append(result)
                    if result.doc_id and result.status != "rejected":
                        found.seen.add(result.doc_id)
                        found.replaced |= held.get(str(path), set()) - {result.doc_id}
                        if result.status == "unchanged" and known.get(result.doc_id) != str(path):
                            found.moved[result.doc_id] = str(path)
                    if assertions is not None:
                        pending.append(Pending(assertions))
                        size += assertions.size_bytes
                    # A batch also ends after as many results as one hash lookup, so that a run
                    # of unchanged documents still moves the progress bar.
                    if (len(pending) >= docs_per_transaction or size >= BYTES_PER_TRANSACTION
                            or len(results) >= HASH_LOOKUP_BATCH):
                        queue.put((results, prepare_batch(pending)))
                        results, pending, size = [], [], 0
                        if not wait_for_room():
                            return
            if results:
                queue.put((results, prepare_batch(pending)))
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


def _file_digest(path: Path) -> str | None:
    """The SHA-256 of a file's content, read in chunks (None when it cannot be read)."""
    try:
        with open(path, "rb") as handle:
            return hashlib.file_digest(handle, "sha256").hexdigest()
    except OSError:
        return None


def read_document(path: Path, max_bytes: int, known: set[str] = frozenset(), replacing: bool = False
                  ) -> tuple[DocumentResult, Assertions | None]:
    """Read, hash and parse one file: its result, and what it asserts unless it is unchanged
    (its content hash is a `known` document, wherever that lay) or rejected. `replacing`: the
    path held another document before (the result is "changed")."""
    name = str(path)
    try:
        size = path.stat().st_size
        if size > max_bytes:
            raise ParseError(name, None, f"document is {size:,} bytes, over the limit of {max_bytes:,}")
        data = path.read_bytes()
    except OSError as exc:
        return DocumentResult(name, "rejected", error=f"{name}: cannot read: {exc.strerror}"), None
    except ParseError as exc:
        return DocumentResult(name, "rejected", error=str(exc), line=exc.line), None
    doc_id = hashlib.sha256(data).hexdigest()
    if doc_id in known:
        return DocumentResult(name, "unchanged", doc_id=doc_id), None
    status = "changed" if replacing else "new"
    try:
        document = parse_bytes(data, name)
    except ParseError as exc:
        return DocumentResult(name, "rejected", doc_id=doc_id, error=str(exc), line=exc.line), None
    assertions = assertions_of(document, doc_id=doc_id, size_bytes=len(data))
    return DocumentResult(name, status, doc_id=doc_id, warnings=len(document.warnings)), assertions


def _write(kb: KnowledgeBase, batch: Batch, results: dict[str, DocumentResult], report: RunReport) -> None:
    """Write a batch in one transaction; if it fails, write its documents one by one to isolate the bad one."""
    if not batch.documents:
        return
    try:
        written = _transaction(kb, batch, report.run_id)
    except Neo4jError as exc:
        if len(batch.documents) == 1:
            result = results[batch.documents[0].assertions.path]
            result.status, result.error = "rejected", f"{result.path}: not written: {exc.message or exc}"
            return
        for one in batch.documents:
            _write(kb, prepare_batch([one]), results, report)
        return
    report.identity.update({"merged": written.merged, "split": written.split})
    for pending in batch.documents:
        result = results[pending.assertions.path]
        result.counts = dict(sorted(written.counts[pending.assertions.doc_id].items()))


def _transaction(kb: KnowledgeBase, batch: Batch, run_id: str) -> BatchResult:
    try:
        # All of a statement's records in one reply (paper_candidates returns thousands): the
        # default of 1,000 per PULL costs a round trip each, which made a 10k ingest 30% slower.
        with kb.driver.session(database=kb.database, fetch_size=-1) as session:
            return session.execute_write(write_batch, batch, run_id)
    except (ServiceUnavailable, SessionExpired, DatabaseUnavailable) as exc:
        uri = kb.settings.uri if kb.settings else "the server"
        raise ConnectionFailed(f"lost the connection to Neo4j at {uri} while writing: {first_line(exc)}") from None


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")

