"""`paperkg export --admin-import DIR`: a corpus's graph as CSV files for `neo4j-admin database
import full`, built without a database.

The offline importer writes store files directly, many times faster than transactions, but
it replaces the whole database: it is for a very large first load (or a rebuild). Afterwards
`paperkg ingest`/`sync` carry on as usual; they find every exported document unchanged
(same document ids and content hashes) and write only what changed.

The graph is the one `paperkg ingest` writes: the same rows (`ingest.write.batch_rows`), the
same provenance, paper properties folded from the MENTIONS statements like
`cypher/refold_papers.cypher`, and the same works: `identity.resolve` over the corpus's
evidence, which ingestion reaches batch by batch.

Two passes keep memory to the corpus's distinct evidence and its papers' ids: the first parses
every document, collects its distinct evidence and spools what it asserts to a temporary file;
identity is then resolved one connected class of evidence at a time (`identity.works_of`), each
work's Evidence rows written and its identifiers spilled as it is found, and each evidence's
paper kept in a table on disk (`_PaperTable`), not in memory; the second pass maps evidence to
papers through that table and writes the rows, spilling what several documents state about one
key (a paper's properties and identifiers, a claim, a relationship) to partitions on disk that
are combined one at a time.

Every pass uses the machine's cores (`processes`, one per CPU by default). Worker processes,
forked at the start while the parent holds little more than the files' paths, parse the first
pass's documents a chunk of files each (`document_chunks`: smaller towards the end, so that the
workers finish together); the parent merges each chunk's evidence in the order it was first
found and spools the chunk's documents in the order of the files. In the second pass the spool
is cut into contiguous ranges, a few per worker, and a free worker maps the next range (the
table is mapped from its file, shared, never copied) into part files and spill partitions of
its own. Each partition is then combined by a worker from the identities' spill and the
ranges' spills in the ranges' order, so that a key's records keep the order of the documents;
the parent appends every part file to its CSV in order. So the files are those one process
writes, byte for byte (but the documents' run and time). With one process everything runs in
the parent, without workers.
"""

from __future__ import annotations

import csv
import gc
import io
import mmap
import multiprocessing
import os
import pickle
import shutil
import subprocess
import sys
import tempfile
import uuid
import zlib
from array import array
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from itertools import pairwise
from pathlib import Path
from typing import IO, Any

from paperkg.corpus.discovery import PathList, discover
from paperkg.corpus.files import FileHashes, cache_path
from paperkg.corpus.reading import read_document
from paperkg.corpus.results import DocumentResult
from paperkg.cypher_files import statements
from paperkg.db import KnowledgeBase
from paperkg.errors import PaperkgError
from paperkg.graph.batch import batch_rows, document_row, fold
from paperkg.graph.contract import NODES, RELATIONSHIPS
from paperkg.graph.identity import Evidence, works_of
from paperkg.graph.rows import Assertions, Unit
from paperkg.limits import MAX_DOCUMENT_BYTES
from paperkg.load.graph_format import STAMP_NAME, check_graph_format, stamp_properties
from paperkg.load.import_run import IMPORT_ACTION, IMPORT_LOADER, record_import
from paperkg.load.loader import LOCK_NAME, Holder, Loader, LoadOptions, heartbeats
from paperkg.load.schema import apply_schema
from paperkg.server import DATABASE, HOME_MODE, STAGING_DATABASE, Instance, require_java
from paperkg.write_steps import write_step

# Between the elements of a list property. Never in the text of a document (the parsers keep
# no control characters but tab and newline), so no element needs escaping.
ARRAY_DELIMITER = "\x1f"
IMPORT = "import"  # an offline import's kind, as the ingestion lock marks it unfinished
RUN_EXPORT_DIRECTORY = "paperkg-import"  # a run's own export, in the server's import directory
# The imported graph's ingestion lock (cypher/lock_*.cypher), its one node marking the import
# unfinished until its steps on the server are taken: whoever finds it finishes them. And its
# format stamp (paperkg.load.graph_format), carried from the import on.
LOCK_FILE = "ingestlock.csv"
STAMP_FILE = "graphformat.csv"
STAMP_COLUMNS = {"version": "long", "written_by": "string", "stamped_at": "datetime"}
LOCK_COLUMNS = {
    "owner": "string",
    "host": "string",
    "pid": "long",
    "process_start": "string",
    "acquired_at": "datetime",
    "heartbeat": "datetime",
    "unfinished_load": "string",
    "load_kind": "string",
}
# Pass 2's spill (see _Spill): partitions on disk, one per so many documents (so a small corpus
# does not pay for many files) up to a most that keeps a task's open files (one per partition)
# well within the usual limit of 1,024, and records held per partition before a write (a task
# holds up to the two multiplied: 32,000 records at the most partitions).
PARTITIONS = 256
MIN_PARTITIONS = 8
DOCUMENTS_PER_PARTITION = 1000
SPILL_RECORDS = 125
# Pass 1's documents per task of a worker process: each task's spooled documents cross a pipe at once.
CHUNK_DOCUMENTS = 50
# Files read per write to the file-hash cache: each is a transaction of its SQLite file, synced
# to disk, so one per chunk of documents would keep this process waiting on the disk.
FILES_PER_RECORD = 1000
# Pass 2's ranges of the spool per process: a range of long documents (claim-check pages) takes
# longer than one of cards of the same bytes, and with several each the processes finish together.
RANGES_PER_PROCESS = 4
# Tasks given to the worker processes, per process, beyond the one whose result is awaited.
TASKS_AHEAD = 2
# The cyclic garbage collector's thresholds while the export runs (see _fewer_collections).
EXPORT_GC_THRESHOLDS = (100_000, 50, 100)
# neo4j-admin's memory: its heap, the off-heap memory it may take for its id mapping and caches
# (its own default is most of the machine's memory), and its page cache (else the server's, from
# the home's neo4j.conf, or its own large default). With the JVM's own overhead they keep the
# importer within the offline path's memory goal (docs/benchmarks.md, issue 20).
IMPORT_HEAP = "512m"
IMPORT_OFF_HEAP = "256m"
IMPORT_PAGE_CACHE = "128m"
_COMBINED_EDGES = ("paper_cites", "makes", "claim_cites", "checked_against", "supports", "refers_to")
_MENTIONS = ("paper_mentions", "claim_mentions", "source_mentions")


def node_file(label: str) -> str:
    """The name (without .csv) of an export's file of `label` nodes: `papers` for Paper."""
    return f"{label.lower()}s"


class ExportError(PaperkgError):
    """The corpus cannot be written in the importer's format; the message says why."""


@dataclass
class ExportSummary:
    directory: Path
    documents: int = 0
    rejected: list[DocumentResult] = field(default_factory=list)  # each rejected document's result, its error line
    nodes: dict[str, int] = field(default_factory=dict)
    relationships: dict[str, int] = field(default_factory=dict)

    @property
    def arguments_file(self) -> Path:
        return self.directory / "import.args"

    def describe(self) -> str:
        nodes = ", ".join(f"{count:,} {label}" for label, count in self.nodes.items())
        relationships = ", ".join(f"{count:,} {kind}" for kind, count in self.relationships.items())
        return (
            f"{self.documents:,} documents ({len(self.rejected)} rejected) exported to {self.directory}: "
            f"{nodes}; {relationships}"
        )


def export_admin_import(
    paths: Iterable[str | os.PathLike],
    directory: str | os.PathLike,
    *,
    max_bytes: int = MAX_DOCUMENT_BYTES,
    processes: int | None = None,
    run_id: str | None = None,
) -> ExportSummary:
    """Write the graph of the documents under `paths` as importer CSVs (and `import.args`) in
    `directory`: `export_files` of the files discovery finds there."""
    discovery = discover(paths)
    return export_files(
        discovery.files,
        directory,
        max_bytes=max_bytes,
        processes=processes,
        run_id=run_id,
        rejected=discovery.rejected,
        lock={},
    )


def export_files(
    files: PathList,
    directory: str | os.PathLike,
    *,
    max_bytes: int = MAX_DOCUMENT_BYTES,
    processes: int | None = None,
    run_id: str | None = None,
    rejected: Iterable[DocumentResult] = (),
    lock: dict[str, Any] | None = None,
) -> ExportSummary:
    """Write the graph of the documents of `files` as importer CSVs (and `import.args`) in
    `directory`, in `processes` processes (default: one per CPU; 1: all in this one). The files
    read are recorded in the file-hash cache (paperkg.corpus.files), so that the first sync
    after the import need not read them again. The documents carry `run_id` as the run that
    wrote them (default: a new one). `rejected`: the documents rejected before, which the
    summary lists first. `lock`: the holder of the imported graph's ingestion lock, which marks
    the import unfinished; an empty holder is nobody, and without one no lock is written (the
    bulk load reads none)."""
    if processes is None:
        processes = os.cpu_count() or 1
    if processes < 1:
        raise ExportError(f"processes must be at least 1, not {processes}")
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    summary = ExportSummary(out)
    summary.rejected.extend(rejected)
    # The working directory (spool, paper table, spills, part files) outlives the workers, so
    # that none writes there as it is removed.
    with (
        _fewer_collections(),
        tempfile.TemporaryDirectory(dir=out) as work,
        FileHashes(cache_path()) as hashes,
        _Workers(_Shared(files, max_bytes, out, Path(work), spill_partitions(len(files))), processes) as workers,
    ):
        chunk_ends: list[int] = []
        # The evidence goes straight to the resolver, which lets it go once it has indexed
        # it: held here, it would stay in memory through the second pass.
        evidence_files = _resolved(_first_pass(workers, summary, chunk_ends, hashes), workers.shared)
        run_id = run_id or str(uuid.uuid4())
        _second_pass(workers, chunk_ends, evidence_files, summary, run_id)
    if lock is not None:
        _write_lock(out / LOCK_FILE, {**lock, "unfinished_load": run_id, "load_kind": IMPORT})
        _write_stamp(out / STAMP_FILE)
    # An argument file for `neo4j-admin @import.args`: one argument per line, quoted (paths may hold spaces).
    lines = ['"' + argument.replace("\\", "\\\\").replace('"', '\\"') + '"' for argument in import_arguments(out)]
    summary.arguments_file.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return summary


@contextmanager
def _fewer_collections() -> Iterator[None]:
    """The export's processes with the cyclic collector run less often (the workers, forked
    inside, inherit it). They make and drop millions of small dicts, lists and tuples, almost
    none in a cycle: at the default thresholds the collector keeps walking them for nothing,
    and reference counting frees them as they go."""
    thresholds = gc.get_threshold()
    gc.set_threshold(*EXPORT_GC_THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)


def _write_lock(path: Path, lock: dict[str, Any]) -> None:
    now = datetime.now(UTC)
    lock = {"acquired_at": now, "heartbeat": now, **lock} if lock.get("owner") else lock
    with _Csv(path.parent, path.stem, ["name:ID(IngestLock)", ":LABEL"], "IngestLock", LOCK_COLUMNS, None) as csv_file:
        csv_file.write(LOCK_NAME, properties=lock)


def _write_stamp(path: Path) -> None:
    with _Csv(path.parent, path.stem, ["name:ID(GraphFormat)", ":LABEL"], "GraphFormat", STAMP_COLUMNS, None) as stamp:
        stamp.write(STAMP_NAME, properties={**stamp_properties(), "stamped_at": datetime.now(UTC)})


def import_arguments(directory: Path, *, database: str = DATABASE, off_heap: str = IMPORT_OFF_HEAP) -> list[str]:
    """neo4j-admin's arguments for importing the files of `directory` into an empty database."""
    bookkeeping = [directory / name for name in (LOCK_FILE, STAMP_FILE) if (directory / name).exists()]
    return [
        "database",
        "import",
        "full",
        database,
        "--overwrite-destination=true",
        "--multiline-fields=true",
        f"--array-delimiter=U+{ord(ARRAY_DELIMITER):04X}",
        f"--max-off-heap-memory={off_heap}",
        f"--report-file={directory / 'import.report'}",
        *(f"--nodes={directory / node_file(label)}.csv" for label in NODES),
        *(f"--nodes={path}" for path in bookkeeping),
        *(f"--relationships={directory / name}.csv" for name in RELATIONSHIPS),
    ]


class AdminImportLoader(Loader):
    """Writes the documents as the importer's CSV files in `directory`, imports them offline into
    a staging store of the managed server, and swaps that store in for its graph once it is
    complete (a restart): the served graph is the old one until then, and the documents' after.
    The run holds the lock of both graphs (the imported one carries it), and the imported graph
    is marked unfinished until its steps on the server are taken: a crash at any point leaves
    the old graph, or the new one for the next command to finish. `summary` says what the
    export wrote. Without a `directory` the export is the run's own (`ingest`'s first load of a
    large corpus): written under the server's import directory and removed when the load ends,
    or by the run that takes the lock over from one that died."""

    name = IMPORT_LOADER
    # A failure leaves the old graph as it was, or the new one marked for the next command to
    # finish: there is no failed run to record in either.
    undone_on_failure = True
    shows_progress = False  # the documents' results come at the end, after the restart

    def __init__(
        self, kb: KnowledgeBase, holder: Holder, directory: Path | None = None, options: LoadOptions | None = None
    ) -> None:
        super().__init__()
        if kb.managed is None:
            raise ExportError(
                "--load imports into the managed Neo4j, and NEO4J_URI names another server: export without "
                "--load, then import with neo4j-admin into that server, stopped"
            )
        self.kb, self.holder, self.instance = kb, holder, kb.managed
        self.own_export = directory is None
        self.directory = run_export_directory(self.instance) if directory is None else directory
        self.options = options or LoadOptions()
        self.summary = ExportSummary(self.directory)

    def load(self, files: Sequence[Path], run_id: str) -> Iterator[list[DocumentResult]]:
        if self.own_export:
            shutil.rmtree(self.directory, ignore_errors=True)  # left by a run that died before its end
        try:
            yield from self._load(files, run_id)
        finally:
            if self.own_export:
                shutil.rmtree(self.directory, ignore_errors=True)

    def _load(self, files: Sequence[Path], run_id: str) -> Iterator[list[DocumentResult]]:
        instance, holder = self.instance, self.holder
        # The lock is shown alive through each long step while the server is up: a run that
        # waits on a lock older than its `stale_after` takes it over.
        with heartbeats(holder):
            write_step()  # the export
            self.summary = export_files(
                PathList(files),
                self.directory,
                max_bytes=self.options.max_bytes,
                processes=self.options.processes,
                run_id=run_id,
                lock=holder.holder,
            )
        yield self.summary.rejected
        with heartbeats(holder):
            write_step()  # the import, beside the served graph
            import_into(instance, self.directory, database=STAGING_DATABASE)
        write_step()
        instance.stage_complete(os.getpid())
        instance.stop()
        instance.start()  # on the ports and with the sizes it had, serving the staged store
        self.kb.reconnect()
        holder.heartbeat(now=True)  # the swapped-in graph's lock is as old as the export
        with heartbeats(holder):
            self.written.changes = finish_import(self.kb).get(run_id)
        holder.mark_unfinished_load(None)
        yield list(exported_documents(self.directory))

    def run_properties(self) -> dict[str, Any]:
        return {"action": IMPORT_ACTION}


def run_export_directory(instance: Instance) -> Path:
    """Where a run's own export for an offline import is written: one at a time, as the
    ingestion lock allows one run at a time."""
    return instance.home / "import" / RUN_EXPORT_DIRECTORY


def discard_run_export(kb: KnowledgeBase) -> None:
    """Remove the export a run that died left for its offline import, if any: whoever takes the
    lock over from it (the served graph is then the old one, or the new one, whole)."""
    if kb.managed is not None:
        shutil.rmtree(run_export_directory(kb.managed), ignore_errors=True)


def exported_documents(directory: Path) -> Iterator[DocumentResult]:
    """Each document of the export in `directory` as a new one, in the export's order."""
    with open(directory / f"{node_file('Document')}.csv", encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle):
            yield DocumentResult(row["path:string"], "new", doc_id=row["doc_id:ID(Document)"])


def import_into(
    instance: Instance,
    directory: Path,
    *,
    database: str = DATABASE,
    heap: str = IMPORT_HEAP,
    off_heap: str = IMPORT_OFF_HEAP,
    page_cache: str = IMPORT_PAGE_CACHE,
) -> None:
    """Run neo4j-admin's offline import of `directory` into `database` of the instance, which
    must not be served: the staging database while the server runs, or its own when stopped."""
    if database == DATABASE and instance.is_running():
        raise ExportError(f"the server in {instance.home} is running: stop it before an offline import")
    # A home no server has started from yet must exist for the importer, and be the owner's alone.
    instance.home.mkdir(mode=HOME_MODE, parents=True, exist_ok=True)
    # The importer finds the store where the server keeps it: $NEO4J_HOME/data by default, or
    # as the home's neo4j.conf says.
    env = {**os.environ, "NEO4J_HOME": str(instance.home), "NEO4J_CONF": str(instance.home / "conf")}
    # The import's own settings, over the server's (its page cache is sized for serving queries).
    settings = directory / "import.conf"
    settings.write_text(f"server.memory.pagecache.size={page_cache}\n", encoding="utf-8")
    command = [
        require_java(),
        f"-Xmx{heap}",
        "-cp",
        instance.classpath(),
        "org.neo4j.cli.AdminTool",
        *import_arguments(directory, database=database, off_heap=off_heap),
        f"--additional-config={settings}",
    ]
    result = subprocess.run(command, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        tail = "\n".join((result.stdout + result.stderr).strip().splitlines()[-20:])
        raise ExportError(f"neo4j-admin import failed (exit {result.returncode}):\n{tail}")


def finish_import(kb: KnowledgeBase) -> dict[str, int]:
    """After an import, on the running server, each step safe to repeat: the graph's format
    checked (an export of an earlier paperkg carries no stamp, and is stamped), constraints and
    indexes and the properties they derive (claims' status among them), the empty lists back,
    and the import's run recorded (the things its change set counts, by run id)."""
    check_graph_format(kb)
    apply_schema(kb)
    write_step()
    with kb.session() as session:
        for text in statements("restore_empty_lists"):
            session.run(text.rstrip(";")).consume()
    return record_import(kb)


# -- worker processes ---------------------------------------------------------------------------


@dataclass
class _Shared:
    """What the tasks of worker processes read: inherited when they are forked, not sent."""

    files: Sequence[Path]
    max_bytes: int
    out: Path  # the export's directory
    work: Path  # its working directory: every file the processes pass each other
    partitions: int  # of each spill (spill_partitions)

    @property
    def spool(self) -> Path:
        return self.work / "documents.spool"

    @property
    def table(self) -> Path:
        return self.work / "papers.table"


# In a worker process: what its tasks share.
_shared: _Shared | None = None


class _Workers:
    """The export's worker processes, or none with one process (their tasks then run in this
    one). They are forked at the first task, while this process holds little more than the
    files' paths: not the evidence or the papers' ids, whose pages they would share, or copy."""

    def __init__(self, shared: _Shared, processes: int) -> None:
        self.shared, self.processes = shared, processes
        self.pool: ProcessPoolExecutor | None = None
        if processes > 1:
            context = multiprocessing.get_context("fork")
            self.pool = ProcessPoolExecutor(processes, mp_context=context, initializer=_inherit, initargs=(shared,))

    def map(self, function: Callable[..., Any], tasks: Iterable[tuple]) -> Iterator:
        """`function(shared, *task)` of each task, in the tasks' order. A worker's exception is raised here."""
        if self.pool is None:
            for task in tasks:
                yield function(self.shared, *task)
            return
        # A few tasks ahead of the one awaited, not all: results this process has not taken yet
        # wait in its memory.
        ahead: deque[Future] = deque()
        try:
            for task in tasks:
                ahead.append(self.pool.submit(_run, function, task))
                if len(ahead) > TASKS_AHEAD * self.processes:
                    yield ahead.popleft().result()
            while ahead:
                yield ahead.popleft().result()
        except BrokenProcessPool:
            raise ExportError("a worker process of the export ended abruptly (out of memory?)") from None
        finally:
            for future in ahead:
                future.cancel()

    def __enter__(self) -> _Workers:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=True)


def _inherit(shared: _Shared) -> None:
    global _shared
    _shared = shared


def _run(function: Callable[..., Any], task: tuple) -> Any:
    return function(_shared, *task)


# -- pass 1: parse, file mentions, spool ----------------------------------------------------


def _first_pass(workers: _Workers, summary: ExportSummary, chunk_ends: list[int], hashes: FileHashes) -> set[Evidence]:
    """The corpus's distinct evidence; the spool's offset at the end of each chunk is appended
    to `chunk_ends`, and the files read are recorded in `hashes`."""
    evidence: set[Evidence] = set()
    chunks = document_chunks(len(workers.shared.files), workers.processes)
    unrecorded: list[tuple] = []  # the file-hash cache's rows, recorded a few chunks at a time
    with open(workers.shared.spool, "wb") as spool:
        for rejected, found, documents, spooled, read_files in workers.map(_parsed, chunks):
            summary.rejected.extend(rejected)
            unrecorded.extend(read_files)
            if len(unrecorded) >= FILES_PER_RECORD:
                hashes.record(unrecorded)
                unrecorded = []
            # In the order first found, as one process reading the documents in order adds them,
            # so that the set and the works resolved from it are the same.
            for e in found:
                if e not in evidence:
                    # One copy of each identifier string: a work's evidence mostly repeats its title and ids.
                    evidence.add(Evidence(*(None if value is None else _intern(value) for value in _fields(e))))
            spool.write(spooled)
            chunk_ends.append(spool.tell())
            summary.documents += documents
    hashes.record(unrecorded)
    return evidence


def document_chunks(count: int, processes: int) -> Iterator[tuple[int, int]]:
    """The first pass's tasks over `count` documents: ranges of CHUNK_DOCUMENTS, smaller towards
    the end (each at most a share of what remains per process), so that the processes finish
    together rather than one reading a long last chunk while the others wait. The documents
    are not all alike: a corpus's claim-check pages, many times a card's work each, sort last."""
    start = 0
    while start < count:
        size = max(1, min(CHUNK_DOCUMENTS, (count - start) // (2 * processes)))
        yield start, start + size
        start += size


def _parsed(
    shared: _Shared, start: int, stop: int
) -> tuple[list[DocumentResult], list[Evidence], int, bytes, list[tuple]]:
    """The documents `files[start:stop]`: their rejections, their distinct evidence in the
    order first found, how many were read, those pickled one after another for the spool, and
    the file-hash cache's rows of the files read."""
    rejected: list[DocumentResult] = []
    read_files: list[tuple] = []
    evidence: dict[Evidence, None] = {}
    spooled = io.BytesIO()
    documents = 0
    for index in range(start, stop):
        result, assertions = read_document(shared.files[index], shared.max_bytes, read_files=read_files)
        if assertions is None:
            rejected.append(result)
            continue
        evidence.update((unit.evidence, None) for unit in assertions.units)
        pickle.dump(assertions, spooled, protocol=pickle.HIGHEST_PROTOCOL)
        documents += 1
    return rejected, list(evidence), documents, spooled.getvalue(), read_files


def _fields(e: Evidence) -> tuple[Any, ...]:
    return (e.arxiv_id, e.doi, e.title_norm, e.year, e.fallback)


def _intern(value: Any) -> Any:
    return sys.intern(value) if isinstance(value, str) else value


def _spooled(spool: IO[bytes]) -> Iterator[Any]:
    """What was pickled into `spool`, one object after another: documents' assertions in the
    spool, lists of records in the spills."""
    while True:
        try:
            yield pickle.load(spool)
        except EOFError:
            return


# -- identity: the works, one connected class of evidence at a time --------------------------


def _resolved(evidence: set[Evidence], shared: _Shared) -> list[_Csv]:
    """Each evidence's paper, in the paper table. The Evidence nodes and their EVIDENCE_OF
    relationships are written, and each paper's identifiers spilled, as its work is found; no
    work is kept."""
    table = _PaperTableWriter(len(evidence))
    works = works_of(evidence)
    del evidence  # the resolver holds it until it has indexed it
    spill = _Spill(shared.work, _IDENTITIES, shared.partitions)
    with (
        _Csv.nodes(shared.out, "Evidence") as evidence_file,
        _Csv.relationships(shared.out, "evidence_of") as evidence_of,
    ):
        for work in works:
            identity = {
                "arxiv_id": work.arxiv_id,
                "doi": work.doi,
                "dois": work.dois or None,
                "fallback": work.fallback,
            }
            spill.add(work.paper_id, ("identity", work.paper_id, identity))
            paper = table.add_paper(work.paper_id)
            for e in work.evidence:
                key = e.key
                evidence_file.write(key, properties=e.properties())
                evidence_of.write(key, work.paper_id, properties={})
                table.add(key, paper)
    spill.close()
    table.write(shared.table)
    return [evidence_file, evidence_of]


# A slot of the paper table that holds no evidence. (Evidence keys are 16 hex digits of a
# digest: their low bits spread over the slots as they are.)
_EMPTY = 0xFFFFFFFF


class _PaperTableWriter:
    """Builds the paper table: an open-addressing hash table from each evidence's key (64 bits,
    the Evidence node's id) to its paper's index, and the papers' ids, in flat arrays."""

    def __init__(self, evidence: int) -> None:
        self.capacity = 1 << max(4, (2 * evidence).bit_length())  # at most half full
        self.keys = array("Q", bytes(8 * self.capacity))
        self.papers = array("I", [_EMPTY]) * self.capacity
        self.offsets = array("Q", [0])
        self.blob = io.BytesIO()

    def add_paper(self, paper_id: str) -> int:
        self.blob.write(paper_id.encode("utf-8"))
        self.offsets.append(self.blob.tell())
        return len(self.offsets) - 2

    def add(self, evidence_key: str, paper: int) -> None:
        key, mask = int(evidence_key, 16), self.capacity - 1
        slot = key & mask
        while self.papers[slot] != _EMPTY:
            if self.keys[slot] == key:
                # Two evidence with one key would be one Evidence node twice: the import would fail.
                raise ExportError(f"two different evidence share the key {evidence_key}")
            slot = (slot + 1) & mask
        self.keys[slot], self.papers[slot] = key, paper

    def write(self, path: Path) -> None:
        with open(path, "wb") as handle:
            array("Q", [self.capacity, len(self.offsets) - 1]).tofile(handle)
            for part in (self.keys, self.papers, self.offsets):
                part.tofile(handle)
            handle.write(self.blob.getbuffer())


class _PaperTable:
    """The paper table mapped from its file, read-only: its pages are the page cache's, shared
    by every process that maps it rather than copied into each."""

    def __init__(self, path: Path) -> None:
        with open(path, "rb") as handle:
            self.map = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
        view = memoryview(self.map)
        capacity, papers = view[:16].cast("Q")
        self.mask = capacity - 1
        start = 16
        self.keys = view[start : start + 8 * capacity].cast("Q")
        start += 8 * capacity
        self.papers = view[start : start + 4 * capacity].cast("I")
        start += 4 * capacity
        self.offsets = view[start : start + 8 * (papers + 1)].cast("Q")
        self.blob_start = start + 8 * (papers + 1)

    def paper_of(self, unit: Unit) -> str:
        key = int(unit.key, 16)
        slot = key & self.mask
        while (paper := self.papers[slot]) != _EMPTY:
            if self.keys[slot] == key:
                start = self.blob_start + self.offsets[paper]
                return self.map[start : self.blob_start + self.offsets[paper + 1]].decode("utf-8")
            slot = (slot + 1) & self.mask
        raise KeyError(unit.evidence)

    def close(self) -> None:
        for view in (self.keys, self.papers, self.offsets):
            view.release()
        self.map.close()


# -- pass 2: rows -----------------------------------------------------------------------------


class _Edges:
    """Relationships asserted by several documents: one per pair, documents listed in order."""

    def __init__(self) -> None:
        self.docs: dict[tuple[str, str], list[str]] = {}
        self.properties: dict[tuple[str, str], dict[str, Any]] = {}  # only for edges that have some

    def add(self, start: str, end: str, doc_ids: list[str], properties: dict[str, Any] | None = None) -> None:
        docs = self.docs.setdefault((start, end), [])
        docs.extend(doc for doc in doc_ids if doc not in docs)
        if properties:  # a later statement of the same edge overrides, as SET does
            self.properties.setdefault((start, end), {}).update(properties)

    def rows(self) -> Iterator[tuple[str, str, dict[str, Any]]]:
        for (start, end), docs in self.docs.items():
            yield start, end, {**self.properties.get((start, end), {}), "docs": docs}


class _Spill:
    """What pass 2 combines per key (a paper's folded properties, claims and sources stated by
    several documents, relationships asserted by several) spilled to disk in `partitions` files by
    key, so that each partition is combined on its own: memory holds one partition's share of
    the corpus, not all of it. Records of one key keep their order. Its files are named
    (`_spill_path`), so that another process reads them once they are closed."""

    def __init__(self, directory: Path, name: str, partitions: int) -> None:
        self.files = [open(_spill_path(directory, name, p), "wb") for p in range(partitions)]  # noqa: SIM115 (closed by close())
        self.pending: list[list[tuple]] = [[] for _ in range(partitions)]

    def add(self, key: str, record: tuple) -> None:
        partition = zlib.crc32(key.encode()) % len(self.files)
        pending = self.pending[partition]
        pending.append(record)
        if len(pending) >= SPILL_RECORDS:
            self._flush(partition)

    def _flush(self, partition: int) -> None:
        pickle.dump(self.pending[partition], self.files[partition], protocol=pickle.HIGHEST_PROTOCOL)
        self.pending[partition] = []

    def close(self) -> None:
        """Every record on disk."""
        for partition, spill in enumerate(self.files):
            self._flush(partition)
            spill.close()


def spill_partitions(documents: int) -> int:
    """The partitions of an export's spills: one per DOCUMENTS_PER_PARTITION documents, so that
    what a worker process combines at once stays a small corpus's share up to PARTITIONS (beyond,
    it grows with the corpus), and at least MIN_PARTITIONS, so that the worker processes share
    the combining. The documents alone decide it: the files are the same whatever the number of
    processes."""
    return min(PARTITIONS, max(MIN_PARTITIONS, -(-documents // DOCUMENTS_PER_PARTITION)))


def _spill_path(directory: Path, name: str, partition: int) -> Path:
    return directory / f"{name}.{partition}.spill"


def _spilled(directory: Path, names: list[str], partition: int) -> Iterator[tuple]:
    """A partition's records of the spills `names`, one spill after the other, each in the
    order its records were added; each file is removed once read."""
    for name in names:
        path = _spill_path(directory, name, partition)
        with open(path, "rb") as spill:
            yield from (record for chunk in _spooled(spill) for record in chunk)
        path.unlink()


def _ranges(chunk_ends: list[int], count: int) -> list[tuple[int, int]]:
    """The spool cut at chunk ends into at most `count` contiguous ranges of about equal bytes."""
    total = chunk_ends[-1] if chunk_ends else 0
    cuts = [0]
    for end in chunk_ends:
        if end > cuts[-1] and end >= total * len(cuts) / count:
            cuts.append(end)
    return list(pairwise(cuts))


def _second_pass(
    workers: _Workers, chunk_ends: list[int], evidence_files: list[_Csv], summary: ExportSummary, run_id: str
) -> None:
    shared = workers.shared
    now = datetime.now(UTC)
    ranges = _ranges(chunk_ends, RANGES_PER_PROCESS * workers.processes)
    documents = _documents_files(shared.out)
    try:
        tasks = ((part, start, stop, run_id, now) for part, (start, stop) in enumerate(ranges))
        for part, rows in enumerate(workers.map(_documents_part, tasks)):
            _append_parts(shared.work, part, documents, rows)
    finally:
        for csv_file in documents.values():
            csv_file.handle.close()
    spills = [_IDENTITIES, *(_documents_spill(part) for part in range(len(ranges)))]
    combined = _combined_files(shared.out)
    try:
        partitions = ((partition, spills) for partition in range(shared.partitions))
        for partition, rows in enumerate(workers.map(_combined_part, partitions)):
            _append_parts(shared.work, partition, combined, rows)
    finally:
        for csv_file in combined.values():
            csv_file.handle.close()
    counts = {csv.name: csv.rows for csv in (*documents.values(), *evidence_files, *combined.values())}
    summary.nodes = {label: counts[node_file(label)] for label in NODES}
    for name, (kind, *_) in RELATIONSHIPS.items():
        summary.relationships[kind] = summary.relationships.get(kind, 0) + counts[name]


_IDENTITIES = "identities"  # the spill of each paper's identifiers, written as identity is resolved


def _documents_spill(part: int) -> str:
    return f"documents-{part}"


def _documents_files(out: Path, part: int | None = None) -> dict[str, _Csv]:
    return {
        "Document": _Csv.nodes(out, "Document", part),
        **{name: _Csv.relationships(out, name, part) for name in _MENTIONS},
    }


def _append_parts(work: Path, part: int, files: dict[str, _Csv], rows: dict[str, int]) -> None:
    """Append a task's part file of each CSV to it, in the tasks' order, as one process writes them."""
    for name, csv_file in files.items():
        path = work / _Csv.part_name(csv_file.name, part)
        csv_file.handle.flush()
        with open(path, "rb") as handle:
            shutil.copyfileobj(handle, csv_file.handle.buffer)
        path.unlink()
        csv_file.rows += rows[name]


def _documents_part(shared: _Shared, part: int, start: int, stop: int, run_id: str, now: datetime) -> dict[str, int]:
    """In a worker process: the rows of the spool's documents from byte `start` to `stop`, in
    part files and a spill of their own; how many rows each part file holds."""
    table = _PaperTable(shared.table)
    spill = _Spill(shared.work, _documents_spill(part), shared.partitions)
    files = _documents_files(shared.work, part)
    try:
        with open(shared.spool, "rb") as spool:
            spool.seek(start)
            while spool.tell() < stop:
                _document_rows(pickle.load(spool), table, spill, files, run_id, now)
    finally:
        spill.close()
        table.close()
        for csv_file in files.values():
            csv_file.handle.close()
    return {name: csv_file.rows for name, csv_file in files.items()}


def _document_rows(
    a: Assertions, table: _PaperTable, spill: _Spill, files: dict[str, _Csv], run_id: str, now: datetime
) -> None:
    """One document's own rows written, what it states about shared keys spilled."""
    rows, _ = batch_rows([a], table.paper_of)
    document = {key: value for key, value in document_row(a).items() if key != "doc_id"}
    files["Document"].write(a.doc_id, properties={**document, "run_id": run_id, "ingested_at": now})
    for paper in rows["write_papers"]:
        for mention in paper["mentions"]:  # one statement per evidence
            statement = {**mention["properties"], **mention["unit"], "precedence": mention["precedence"]}
            files["paper_mentions"].write(a.doc_id, paper["paper_id"], properties=statement)
            folded = {"precedence": mention["precedence"], "properties": mention["properties"]}  # what fold reads
            spill.add(paper["paper_id"], ("fold", paper["paper_id"], folded))
    for row in rows["write_paper_cites"]:
        _spill_edge(spill, "paper_cites", row["citing"], row["cited"], row["doc_ids"])
    for row in rows["write_claims"]:
        spill.add(row["claim_id"], ("node", "Claim", row["claim_id"], row["properties"]))
        _spill_edge(spill, "makes", row["paper_id"], row["claim_id"], [a.doc_id])
    for claim_id in dict.fromkeys(row["claim_id"] for row in rows["write_claims"]):
        files["claim_mentions"].write(a.doc_id, claim_id, properties={})
    for row in rows["write_sources"]:
        spill.add(row["source_id"], ("node", "Source", row["source_id"], row["properties"]))
        files["source_mentions"].write(a.doc_id, row["source_id"], properties={})
    for row in rows["write_claim_cites"]:
        _spill_edge(spill, "claim_cites", row["claim_id"], row["source_id"], [a.doc_id])
    for row in rows["write_checks"]:
        check = {key: row[key] for key in ("verdict", "confidence", "rationale", "ambiguous")}
        _spill_edge(spill, "checked_against", row["claim_id"], row["source_id"], [a.doc_id], check)
        if row["verdict"] == "supported":
            _spill_edge(spill, "supports", row["source_id"], row["claim_id"], [a.doc_id])
    for row in rows["write_refers_to"]:
        _spill_edge(spill, "refers_to", row["source_id"], row["paper_id"], [a.doc_id])


def _spill_edge(
    spill: _Spill, name: str, start: str, end: str, doc_ids: list[str], properties: dict[str, Any] | None = None
) -> None:
    spill.add(f"{start}\x00{end}", ("edge", name, start, end, doc_ids, properties))


def _combined_files(out: Path, part: int | None = None) -> dict[str, _Csv]:
    return {
        **{label: _Csv.nodes(out, label, part) for label in ("Paper", "Claim", "Source")},
        **{name: _Csv.relationships(out, name, part) for name in _COMBINED_EDGES},
    }


def _combined_part(shared: _Shared, partition: int, spills: list[str]) -> dict[str, int]:
    """In a worker process: one partition's rows in part files; how many rows each holds."""
    files = _combined_files(shared.work, partition)
    try:
        _write_partition(_spilled(shared.work, spills, partition), files)
    finally:
        for csv_file in files.values():
            csv_file.handle.close()
    return {name: csv_file.rows for name, csv_file in files.items()}


def _write_partition(records: Iterator[tuple], out: dict[str, _Csv]) -> None:
    """Combine one partition's records and write its rows: every key's records are in it."""
    identities: dict[str, dict[str, Any]] = {}  # paper → its work's identifiers
    folded: dict[str, dict[str, tuple[str, Any]]] = {}  # paper → property → (precedence, value)
    nodes: dict[str, dict[str, dict[str, Any]]] = {"Claim": {}, "Source": {}}  # a later statement overrides
    edges = {name: _Edges() for name in _COMBINED_EDGES}
    for record in records:
        if record[0] == "fold":
            fold(folded.setdefault(record[1], {}), record[2])
        elif record[0] == "identity":
            identities[record[1]] = record[2]
        elif record[0] == "node":
            nodes[record[1]].setdefault(record[2], {}).update(record[3])
        else:
            edges[record[1]].add(*record[2:])
    for paper_id, properties in folded.items():
        identity = identities[paper_id]
        out["Paper"].write(paper_id, properties={**{key: value for key, (_, value) in properties.items()}, **identity})
    for label, found in nodes.items():
        for key, properties in found.items():
            out[label].write(key, properties=properties)
    for name, relationships in edges.items():
        for start, end, properties in relationships.rows():
            out[name].write(start, end, properties=properties)


# -- CSV in the importer's format ---------------------------------------------------------------


class _Csv:
    """One CSV file with its header line; every value quoted, an empty field meaning "no property".
    A `part` is a file of some of its rows, without the header, to be appended to it."""

    def __init__(
        self, out: Path, name: str, fixed: list[str], constant: str, properties: dict[str, str], part: int | None
    ):
        self.name, self.constant, self.properties = name, _quote(constant), properties
        self.cells = [(key, _cell_for(kind)) for key, kind in properties.items()]
        file = f"{name}.csv" if part is None else self.part_name(name, part)
        self.handle = open(out / file, "w", encoding="utf-8", newline="")  # noqa: SIM115 (closed by close())
        if part is None:
            self.handle.write(",".join(fixed + [f"{key}:{kind}" for key, kind in properties.items()]) + "\n")
        self.rows = 0

    @staticmethod
    def part_name(name: str, part: int) -> str:
        return f"{name}.{part}.part"

    @classmethod
    def nodes(cls, out: Path, label: str, part: int | None = None) -> _Csv:
        key, properties = NODES[label]
        return cls(out, node_file(label), [f"{key}:ID({label})", ":LABEL"], label, properties, part)

    @classmethod
    def relationships(cls, out: Path, name: str, part: int | None = None) -> _Csv:
        kind, start, end, properties = RELATIONSHIPS[name]
        return cls(out, name, [f":START_ID({start})", f":END_ID({end})", ":TYPE"], kind, properties, part)

    def write(self, *ids: str, properties: dict[str, Any]) -> None:
        if not properties.keys() <= self.properties.keys():
            unknown = sorted(properties.keys() - self.properties.keys())
            raise ExportError(f"{self.name}: no column for {', '.join(unknown)} (add it to admin_import)")
        cells = [_quote(value) for value in ids]
        cells.append(self.constant)
        cells += ["" if (value := properties.get(key)) is None else cell(value) for key, cell in self.cells]
        self.handle.write(",".join(cells) + "\n")
        self.rows += 1

    def __enter__(self) -> _Csv:
        return self

    def __exit__(self, *exc: object) -> None:
        self.handle.close()


# A cell of each column kind, for a value that is not None (an empty cell is "no property").
def _cell_of_list(value: Any) -> str:
    items = [str(item) for item in value]
    if any(ARRAY_DELIMITER in item for item in items):
        raise ExportError(f"a list element contains the array delimiter U+{ord(ARRAY_DELIMITER):04X}")
    return _quote(ARRAY_DELIMITER.join(items))


def _cell_of_text(value: Any) -> str:
    return _quote(str(value))


_CELLS: dict[str, Callable[[Any], str]] = {
    "boolean": lambda value: "true" if value else "false",
    "date": lambda value: value.isoformat(),
    "datetime": lambda value: value.isoformat(),
}


def _cell_for(kind: str) -> Callable[[Any], str]:
    """How a column of this kind (the importer's type: string, int, boolean, string[], …) writes a value."""
    return _cell_of_list if kind.endswith("[]") else _CELLS.get(kind, _cell_of_text)


def _quote(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'
