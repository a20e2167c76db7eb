"""An ingestion run: find documents, skip unchanged ones, parse, map, write, record the run.

Data flows one way: read file → parse to models (paperkg.ingest.parse) → assertions with
keys (paperkg.ingest.graph.rows) → identity and rows written per batch (paperkg.ingest.graph.write).
A document that fails to parse or to write is rejected alone; the others still land.
"""

from __future__ import annotations

import gc
import os
import stat
import sys
import threading
import uuid
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from collections.abc import Set as AbstractSet
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from queue import Queue
from typing import IO, Any, overload

from neo4j.exceptions import DatabaseUnavailable, DriverError, Neo4jError, ServiceUnavailable, SessionExpired
from tqdm import tqdm

from paperkg.answers import AnswerError
from paperkg.answers import refresh as refresh_answers
from paperkg.cypher_files import statement
from paperkg.db import ConnectionFailed, KnowledgeBase, first_line, log
from paperkg.ingest import ParseError, parse_bytes
from paperkg.ingest.files import FileHashes, Read, cache_path
from paperkg.ingest.graph.changes import ChangeLog
from paperkg.ingest.graph.rows import Assertions, assertions_of
from paperkg.ingest.graph.write import (
    Batch,
    BatchResult,
    Pending,
    chunks,
    prepare_batch,
    retract_documents,
    write_batch,
)
from paperkg.ingest.parse.errors import excerpt
from paperkg.ingest.results import STATUSES, DocumentResult, DocumentResults, write_json
from paperkg.limits import DOCS_PER_TRANSACTION, MAX_DOCUMENT_BYTES
from paperkg.lock import IngestLock
from paperkg.schema import apply_schema

# A batch also ends at this many bytes of documents: a claim-check page is many times a card,
# and a batch of pages (parsed ahead) must not grow memory with the corpus (docs/performance.md).
BYTES_PER_TRANSACTION = 2 * 1024 * 1024
HASH_LOOKUP_BATCH = 1000
YOUNG_COLLECTION_EVERY = 10  # batches; see _collected_per_batch
FULL_COLLECTION_EVERY = 100
RUN_ERROR_CHARS = 500  # of a failed run's error, kept on its IngestRun


@dataclass
class RunReport:
    run_id: str
    started_at: str
    ended_at: str | None = None
    # Each document's result, on disk: iterating reads them back (see ingest/results.py).
    documents: DocumentResults = field(default_factory=DocumentResults)
    identity: Counter = field(default_factory=Counter)  # nodes merged into others, nodes split
    # What landed, counted as `paperkg stats` counts: new (or, retracted, fewer) nodes per label
    # and relationships per type. The documents' counts say what each one mentioned.
    graph_change: dict[str, dict[str, int]] = field(default_factory=dict)
    # The changes the run's change sets hold, stored with them (None: not recorded); for a run
    # that built the whole graph, the things its one change set counts.
    changes_recorded: int | None = None
    # The precomputed answers the run computed again (paperkg.answers), when there were any.
    answers_refreshed: list[str] = field(default_factory=list)
    answers_seconds: float = 0.0  # what computing them took, the run's share of its time
    answers_error: str | None = None  # why they were not, when the server failed to compute one
    # The unchanged documents whose files were not read: their stat was what it was when they
    # were last read (paperkg.ingest.files).
    unchanged_not_read: int = 0

    @property
    def totals(self) -> dict[str, int]:
        totals = Counter({"seen": len(self.documents)})
        totals.update(self.documents.statuses)
        totals["seen"] -= totals["retracted"]
        return {key: totals.get(key, 0) for key in ("seen", *STATUSES)}

    @property
    def rows_written(self) -> dict[str, int]:
        return dict(sorted(self.documents.rows_written.items()))

    @property
    def ok(self) -> bool:
        return self.totals["rejected"] == 0

    def summary_dict(self) -> dict[str, Any]:
        """The report but its documents."""
        return {
            "run_id": self.run_id,
            "started_at": self.started_at,
            "ended_at": self.ended_at,
            "totals": self.totals,
            "unchanged_not_read": self.unchanged_not_read,
            "graph_change": self.graph_change,
            "rows_written": self.rows_written,
            "identity": {"merged": self.identity["merged"], "split": self.identity["split"]},
            **({} if self.changes_recorded is None else {"changes_recorded": self.changes_recorded}),
            **(
                {"answers_refreshed": self.answers_refreshed, "answers_seconds": self.answers_seconds}
                if self.answers_refreshed
                else {}
            ),
            **({"answers_error": self.answers_error} if self.answers_error else {}),
        }

    def to_dict(self) -> dict[str, Any]:
        return {**self.summary_dict(), "documents": [asdict(document) for document in self.documents]}

    def record(self, kb: KnowledgeBase, **properties: Any) -> None:
        """End the run now and record it as its IngestRun: its times, totals and status, and
        `properties`."""
        self.ended_at = now()
        kb.execute(
            statement("record_run"),
            run_id=self.run_id,
            properties={
                "started_at": self.started_at,
                "ended_at": self.ended_at,
                **self.totals,
                "status": "ok" if self.ok else "rejected",
                **properties,
            },
        )

    def write_json(self, out: IO[str]) -> None:
        """`to_dict()` as JSON (indented by two), written one document at a time."""
        write_json(self.summary_dict(), self.documents, out)


class GraphOutdated(Exception):
    """The graph was written by an earlier paperkg whose identity this one cannot extend."""


class PathList(Sequence[Path]):
    """Paths kept as their strings, each a Path again when read: a run holds the path of every
    file it reads, and a Path object costs several times its string (docs/performance.md)."""

    def __init__(self, paths: Iterable[str | os.PathLike] = ()) -> None:
        self._names = [os.fspath(path) for path in paths]

    def __len__(self) -> int:
        return len(self._names)

    @overload
    def __getitem__(self, index: int) -> Path: ...
    @overload
    def __getitem__(self, index: slice) -> list[Path]: ...
    def __getitem__(self, index: int | slice) -> Path | list[Path]:
        if isinstance(index, slice):
            return [Path(name) for name in self._names[index]]
        return Path(self._names[index])

    def __iter__(self) -> Iterator[Path]:
        return (Path(name) for name in self._names)

    def names(self) -> list[str]:
        return list(self._names)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and list(self) == list(other)

    def __repr__(self) -> str:
        return f"PathList({self._names!r})"


@dataclass
class Discovery:
    """What discover found: the files to read, in order; the entries it could not take (each
    rejected with its reason); and the directories it could not list, whose documents a sync
    must keep rather than retract as gone."""

    files: PathList = field(default_factory=PathList)
    rejected: list[DocumentResult] = field(default_factory=list)
    unlisted: list[Path] = field(default_factory=list)


def discover(paths: Iterable[str | os.PathLike], *, follow_links: bool = False) -> Discovery:
    """Files named, and files under directories named (recursively, hidden ones skipped), sorted.

    Below a directory only regular files are taken, and links to files inside it (as the file
    they lead to); links to directories are not followed (as Path.rglob), and broken links,
    link loops and special files are skipped. A link to a file outside the directory is
    rejected unless `follow_links`: then it is read as the document at the link's own path,
    so that removing the link retracts it. Names that are not UTF-8 and directories that
    cannot be listed are rejected. A path named that does not exist is FileNotFoundError.
    """
    found: dict[str, None] = {}  # the files' paths, in order (strings: see PathList)
    discovery = Discovery()
    for given in paths:
        path = Path(given)
        try:
            is_directory = stat.S_ISDIR(path.stat().st_mode)
        except OSError as exc:
            raise FileNotFoundError(f"{shown(path)}: {_no_such(exc)}") from None
        if not is_directory:
            if _named_in_utf8(path, discovery):
                found[str(path.resolve())] = None
            continue
        root = path.resolve()
        if not _named_in_utf8(root, discovery):
            discovery.unlisted.append(root)
            continue
        listed: list[str] = []
        linked: dict[str, str] = {}
        _walk(root, root, follow_links, listed, linked, discovery)
        listed.sort()
        found.update((linked.get(file, file), None) for file in listed)
    discovery.files = PathList(found)
    return discovery


def _walk(
    directory: Path, root: Path, follow_links: bool, listed: list[str], linked: dict[str, str], discovery: Discovery
) -> None:
    """Add the path of each file to read below `directory` to `listed`, and for a link the
    document it stands for to `linked` (see discover). Entries are taken as the listing yields
    them, not held: a corpus directory lists every document (docs/performance.md)."""
    files: list[str] = []
    links: dict[str, str] = {}
    subdirectories: list[Path] = []
    try:
        with os.scandir(directory) as listing:
            for entry in listing:
                _take(entry, root, follow_links, files, links, subdirectories, discovery)
    except OSError as exc:
        discovery.unlisted.append(directory)
        discovery.rejected.append(_rejected(shown(directory), f"cannot list the directory: {exc.strerror}"))
        return
    listed += files
    linked.update(links)
    for subdirectory in subdirectories:
        _walk(subdirectory, root, follow_links, listed, linked, discovery)


def _take(
    entry: os.DirEntry,
    root: Path,
    follow_links: bool,
    files: list[str],
    links: dict[str, str],
    subdirectories: list[Path],
    discovery: Discovery,
) -> None:
    """Sort one entry of a listing: a file to read, a link (with its document), a directory to
    list next, or something skipped or rejected."""
    if entry.name.startswith(".") or not _named_in_utf8(entry.path, discovery):
        return
    try:
        if entry.is_dir(follow_symlinks=False):
            subdirectories.append(Path(entry.path))
        elif entry.is_symlink():
            document = _linked_document(Path(entry.path), root, follow_links, discovery)
            if document is not None:
                files.append(entry.path)
                links[entry.path] = str(document)
        elif entry.is_file(follow_symlinks=False):
            files.append(entry.path)
    except OSError as exc:  # the entry went away or cannot be examined
        discovery.rejected.append(_rejected(entry.path, f"cannot read: {exc.strerror}"))


def _linked_document(link: Path, root: Path, follow_links: bool, discovery: Discovery) -> Path | None:
    """The document a link below `root` stands for: the file it leads to when that is inside
    `root`, the link itself when it leads outside and links are followed, else None."""
    try:
        target = link.resolve(strict=True)
        regular = stat.S_ISREG(target.stat().st_mode)
    except (OSError, RuntimeError):  # broken, or a loop
        return None
    if not regular:
        return None
    if target.is_relative_to(root):
        return target
    if follow_links:
        return link
    discovery.rejected.append(
        _rejected(str(link), f"a link to a file outside {root}: not followed (--follow-links reads it)")
    )
    return None


def _named_in_utf8(path: str | Path, discovery: Discovery) -> bool:
    """False, with the path rejected, when its name cannot be stored: Neo4j strings are UTF-8."""
    try:
        str(path).encode("utf-8")
    except UnicodeEncodeError:
        discovery.rejected.append(_rejected(shown(path), "the file name is not valid UTF-8: rename the file"))
        return False
    return True


def shown(path: str | os.PathLike) -> str:
    """A path as messages print it: bytes that are not UTF-8 escaped (`x\\xff.txt`)."""
    return os.fsencode(path).decode("utf-8", errors="backslashreplace")


def _no_such(exc: OSError) -> str:
    return "no such file or directory" if isinstance(exc, FileNotFoundError) else f"cannot open: {exc.strerror}"


def _rejected(path: str, reason: str, line: int | None = None) -> DocumentResult:
    where = path if line is None else f"{path}:{line}"
    return DocumentResult(path, "rejected", error=f"{where}: {reason}", line=line)


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
    they were when last read (paperkg.ingest.files).
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


def graph_change(before: dict[str, dict[str, int]], after: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
    """The counts that differ, per group (nodes, relationships): after minus before."""
    return {
        group: {
            name: count - before[group].get(name, 0)
            for name, count in counts.items()
            if count != before[group].get(name, 0)
        }
        for group, counts in after.items()
    }


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
    not_read: int = 0  # unchanged documents known by their files' stat alone (paperkg.ingest.files)


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


def read_document(
    path: Path,
    max_bytes: int,
    known: AbstractSet[str] = frozenset(),
    replacing: bool = False,
    digest: str | None = None,
    read_files: list[tuple] | None = None,
) -> tuple[DocumentResult, Assertions | None]:
    """Read, hash and parse one file: its result, and what it asserts unless it is unchanged
    (its content hash is a `known` document, wherever that lay) or rejected. `replacing`: the
    path held another document before (the result is "changed"). `digest`: the file's content
    hash, just read: a known one is not read again. `read_files`: where to append the file's row
    for the file-hash cache (FileHashes.record), once read. Whatever goes wrong rejects this
    document alone."""
    name = str(path)
    if digest is not None and digest in known:
        return DocumentResult(name, "unchanged", doc_id=digest), None
    try:
        read = Read.of(path, max_bytes)
    except OSError as exc:
        return _rejected(name, f"cannot read: {exc.strerror}"), None
    except ParseError as exc:
        return _rejected(name, exc.reason, exc.line), None
    data, doc_id = read.data, read.sha256
    if read_files is not None:
        read_files.append(read.row)
    if doc_id in known:
        return DocumentResult(name, "unchanged", doc_id=doc_id), None
    status = "changed" if replacing else "new"
    try:
        document = parse_bytes(data, name, max_bytes=max_bytes)
        assertions = assertions_of(document, doc_id=doc_id, size_bytes=len(data))
    except ParseError as exc:
        return _rejected(name, exc.reason, exc.line), None
    except Exception as exc:  # a defect the parser or the mapping did not foresee
        return _rejected(name, f"not mapped to the graph: {_internal(exc)}"), None
    return DocumentResult(name, status, doc_id=doc_id, warnings=len(document.warnings)), assertions


def _internal(exc: Exception) -> str:
    return f"internal error ({type(exc).__name__}): {excerpt(str(exc))}"


def _prepared(pending: list[Pending], results: dict[str, DocumentResult]) -> Batch:
    """The batch of `pending`, prepared; a document whose mentions cannot be grouped into works
    is rejected (its result updated) and left out, the others still prepared together."""
    try:
        return prepare_batch(pending)
    except Exception as exc:
        if len(pending) == 1:
            _reject(results[pending[0].assertions.path], f"identity not resolved: {_internal(exc)}")
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
            reason = (exc.message or first_line(exc)) if isinstance(exc, Neo4jError) else _internal(exc)
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


def now() -> str:
    """The time as a run records it: UTC, to the second."""
    return datetime.now(UTC).isoformat(timespec="seconds")
