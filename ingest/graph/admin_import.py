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
work's Evidence rows written and its identifiers spilled as it is found, so that only each
evidence's paper id is kept; the second pass maps evidence to papers and writes the rows,
spilling what several documents state about one key (a paper's properties and identifiers, a
claim, a relationship) to partitions on disk that are combined one at a time.

Both passes use the machine's cores (`processes`, one per CPU by default). Worker processes,
forked at the start while the parent holds little more than the files' paths, parse the first
pass's documents a chunk of files each; the parent merges each chunk's evidence in the order it
was first found and spools the chunk's documents in the order of the files. After the second
pass's documents, the workers combine the partitions, each into part files that the parent
appends to the CSVs in partition order. So the files are those one process writes, byte for
byte (but the documents' run and time). The second pass's documents are mapped in the parent,
which alone holds each evidence's paper id. With one process everything runs in the parent,
without workers.
"""

from __future__ import annotations

import io
import multiprocessing
import os
import pickle
import shutil
import subprocess
import sys
import tempfile
import uuid
import zlib
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from paperkg.cypher_files import statements
from paperkg.db import KnowledgeBase, connect
from paperkg.ingest.graph.contract import NODES, RELATIONSHIPS
from paperkg.ingest.graph.identity import Evidence, works_of
from paperkg.ingest.graph.import_run import record_import
from paperkg.ingest.graph.rows import Assertions
from paperkg.ingest.graph.write import batch_rows, document_row, fold
from paperkg.ingest.run import MAX_DOCUMENT_BYTES, discover, read_document
from paperkg.schema import apply_schema
from paperkg.server import Instance, require_java

# Between the elements of a list property. Never in the text of a document (the parsers keep
# no control characters but tab and newline), so no element needs escaping.
ARRAY_DELIMITER = "\x1f"
DATABASE = "neo4j"
# Pass 2's spill (see _Spill): partitions on disk, and records held per partition before a write.
PARTITIONS = 64
SPILL_RECORDS = 2000
# Pass 1's documents per task of a worker process: each task's spooled documents cross a pipe at once.
CHUNK_DOCUMENTS = 50
# Tasks given to the worker processes, per process, beyond the one whose result is awaited.
TASKS_AHEAD = 2
# neo4j-admin's memory: its heap, the off-heap memory it may take for its id mapping and caches
# (its own default is most of the machine's memory), and its page cache (else the server's, from
# the home's neo4j.conf, or its own large default). With the JVM's own overhead they keep the
# importer within the offline path's memory goal (docs/performance.md, issue 20).
IMPORT_HEAP = "512m"
IMPORT_OFF_HEAP = "256m"
IMPORT_PAGE_CACHE = "128m"
_COMBINED_EDGES = ("paper_cites", "makes", "claim_cites", "checked_against", "supports", "refers_to")


def node_file(label: str) -> str:
    """The name (without .csv) of an export's file of `label` nodes: `papers` for Paper."""
    return f"{label.lower()}s"


class ExportError(Exception):
    """The corpus cannot be written in the importer's format; the message says why."""


@dataclass
class ExportSummary:
    directory: Path
    documents: int = 0
    rejected: list[str] = field(default_factory=list)  # one error line per rejected document
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
) -> ExportSummary:
    """Write the graph of the documents under `paths` as importer CSVs (and `import.args`) in
    `directory`, in `processes` processes (default: one per CPU; 1: all in this one)."""
    if processes is None:
        processes = os.cpu_count() or 1
    if processes < 1:
        raise ExportError(f"processes must be at least 1, not {processes}")
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    summary = ExportSummary(out)
    # The part files' directory outlives the workers, so that none writes there as it is removed.
    with tempfile.TemporaryFile(dir=out) as spool, tempfile.TemporaryDirectory(dir=out) as parts:
        discovery = discover(paths)
        summary.rejected.extend(result.error for result in discovery.rejected)
        spill = _Spill(out)
        with _Workers(_Shared(discovery.files, max_bytes, spill, Path(parts)), processes) as workers:
            evidence = _first_pass(workers, spool, summary)
            paper_of, evidence_files = _resolved(evidence, out, spill)
            spool.seek(0)
            _second_pass(_spooled(spool), paper_of, spill, evidence_files, out, summary, workers)
    # An argument file for `neo4j-admin @import.args`: one argument per line, quoted (paths may hold spaces).
    lines = ['"' + argument.replace("\\", "\\\\").replace('"', '\\"') + '"' for argument in import_arguments(out)]
    summary.arguments_file.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return summary


def import_arguments(directory: Path, *, off_heap: str = IMPORT_OFF_HEAP) -> list[str]:
    """neo4j-admin's arguments for importing the files of `directory` into an empty `neo4j` database."""
    return [
        "database",
        "import",
        "full",
        DATABASE,
        "--overwrite-destination=true",
        "--multiline-fields=true",
        f"--array-delimiter=U+{ord(ARRAY_DELIMITER):04X}",
        f"--max-off-heap-memory={off_heap}",
        f"--report-file={directory / 'import.report'}",
        *(f"--nodes={directory / node_file(label)}.csv" for label in NODES),
        *(f"--relationships={directory / name}.csv" for name in RELATIONSHIPS),
    ]


def load(instance: Instance, directory: Path) -> None:
    """Replace the managed server's graph with an export: stop, import, start, finish."""
    ports = instance.ports()
    instance.stop()
    import_into(instance, directory)
    instance.start(bolt_port=ports.bolt, http_port=ports.http)
    with connect(home=str(instance.home)) as kb:
        finish_import(kb)


def import_into(
    instance: Instance,
    directory: Path,
    *,
    heap: str = IMPORT_HEAP,
    off_heap: str = IMPORT_OFF_HEAP,
    page_cache: str = IMPORT_PAGE_CACHE,
) -> None:
    """Run neo4j-admin's offline import of `directory` into the (stopped) instance's database."""
    if instance.is_running():
        raise ExportError(f"the server in {instance.home} is running: stop it before an offline import")
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
        *import_arguments(directory, off_heap=off_heap),
        f"--additional-config={settings}",
    ]
    result = subprocess.run(command, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        tail = "\n".join((result.stdout + result.stderr).strip().splitlines()[-20:])
        raise ExportError(f"neo4j-admin import failed (exit {result.returncode}):\n{tail}")


def finish_import(kb: KnowledgeBase) -> None:
    """After an import, on the running server: constraints and indexes and the properties they
    derive (claims' status among them), the empty lists back, and the import's run recorded."""
    apply_schema(kb)
    with kb.session() as session:
        for text in statements("restore_empty_lists"):
            session.run(text.rstrip(";")).consume()
    record_import(kb)


# -- worker processes ---------------------------------------------------------------------------


@dataclass
class _Shared:
    """What the tasks of worker processes read: inherited when they are forked, not sent."""

    files: Sequence[Path]
    max_bytes: int
    spill: _Spill
    parts: Path  # for the combined partitions' part files


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


def _first_pass(workers: _Workers, spool: IO[bytes], summary: ExportSummary) -> set[Evidence]:
    evidence: set[Evidence] = set()
    count = len(workers.shared.files)
    chunks = ((start, min(start + CHUNK_DOCUMENTS, count)) for start in range(0, count, CHUNK_DOCUMENTS))
    for rejected, found, documents, spooled in workers.map(_parsed, chunks):
        summary.rejected.extend(rejected)
        # In the order first found, as one process reading the documents in order adds them,
        # so that the set and the works resolved from it are the same.
        for e in found:
            if e not in evidence:
                # One copy of each identifier string: a work's evidence mostly repeats its title and ids.
                evidence.add(Evidence(*(None if value is None else _intern(value) for value in _fields(e))))
        spool.write(spooled)
        summary.documents += documents
    return evidence


def _parsed(shared: _Shared, start: int, stop: int) -> tuple[list[str], list[Evidence], int, bytes]:
    """The documents `files[start:stop]`: their rejections, their distinct evidence in the
    order first found, how many were read, and those pickled one after another for the spool."""
    rejected: list[str] = []
    evidence: dict[Evidence, None] = {}
    spooled = io.BytesIO()
    documents = 0
    for index in range(start, stop):
        result, assertions = read_document(shared.files[index], shared.max_bytes)
        if assertions is None:
            rejected.append(result.error or result.path)
            continue
        evidence.update((unit.evidence, None) for unit in assertions.units)
        pickle.dump(assertions, spooled, protocol=pickle.HIGHEST_PROTOCOL)
        documents += 1
    return rejected, list(evidence), documents, spooled.getvalue()


def _fields(e: Evidence) -> tuple[Any, ...]:
    return (e.arxiv_id, e.doi, e.title_norm, e.year, e.fallback)


def _intern(value: Any) -> Any:
    return sys.intern(value) if isinstance(value, str) else value


def _spooled(spool: IO[bytes]) -> Iterator[Assertions]:
    while True:
        try:
            yield pickle.load(spool)
        except EOFError:
            return


# -- identity: the works, one connected class of evidence at a time --------------------------


def _resolved(evidence: set[Evidence], out: Path, spill: _Spill) -> tuple[dict[Evidence, str], list[_Csv]]:
    """Each evidence's paper id. The Evidence nodes and their EVIDENCE_OF relationships are
    written, and each paper's identifiers spilled, as its work is found; no work is kept."""
    works = works_of(evidence)
    del evidence  # the resolver holds it until it has indexed it
    paper_of: dict[Evidence, str] = {}
    with _Csv.nodes(out, "Evidence") as evidence_file, _Csv.relationships(out, "evidence_of") as evidence_of:
        for work in works:
            identity = {
                "arxiv_id": work.arxiv_id,
                "doi": work.doi,
                "dois": work.dois or None,
                "fallback": work.fallback,
            }
            spill.add(work.paper_id, ("identity", work.paper_id, identity))
            for e in work.evidence:
                evidence_file.write(
                    e.key,
                    properties={
                        "arxiv_id": e.arxiv_id,
                        "doi": e.doi,
                        "title_norm": e.title_norm,
                        "year": e.year,
                        "fallback": e.fallback,
                    },
                )
                evidence_of.write(e.key, work.paper_id, properties={})
                paper_of[e] = work.paper_id
    return paper_of, [evidence_file, evidence_of]


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
    several documents, relationships asserted by several) spilled to disk in PARTITIONS files by
    key, so that each partition is combined on its own: memory holds one partition's share of
    the corpus, not all of it. Records of one key keep their order."""

    def __init__(self, directory: Path) -> None:
        self.files = [tempfile.TemporaryFile(dir=directory) for _ in range(PARTITIONS)]  # noqa: SIM115 (closed by close())
        self.pending: list[list[tuple]] = [[] for _ in range(PARTITIONS)]

    def add(self, key: str, record: tuple) -> None:
        partition = zlib.crc32(key.encode()) % PARTITIONS
        pending = self.pending[partition]
        pending.append(record)
        if len(pending) >= SPILL_RECORDS:
            self._flush(partition)

    def _flush(self, partition: int) -> None:
        pickle.dump(self.pending[partition], self.files[partition], protocol=pickle.HIGHEST_PROTOCOL)
        self.pending[partition] = []

    def finish(self) -> None:
        """Every record on disk, where a worker process reads it."""
        for partition, spill in enumerate(self.files):
            self._flush(partition)
            spill.flush()

    def records(self, partition: int) -> Iterator[tuple]:
        """The partition's records in the order they were added; its file is emptied once read."""
        spill = self.files[partition]
        spill.seek(0)
        yield from (record for chunk in _spooled(spill) for record in chunk)
        spill.truncate(0)

    def close(self) -> None:
        for spill in self.files:
            spill.close()


def _second_pass(
    documents: Iterator[Assertions],
    paper_of: dict[Evidence, str],
    spill: _Spill,
    evidence_files: list[_Csv],
    out: Path,
    summary: ExportSummary,
    workers: _Workers,
) -> None:
    run_id, now = str(uuid.uuid4()), datetime.now(UTC)
    with (
        _Csv.nodes(out, "Document") as document_file,
        _Csv.relationships(out, "paper_mentions") as paper_mentions,
        _Csv.relationships(out, "claim_mentions") as claim_mentions,
        _Csv.relationships(out, "source_mentions") as source_mentions,
    ):
        for a in documents:
            rows, _ = batch_rows([a], paper_of.__getitem__)
            document = {key: value for key, value in document_row(a).items() if key != "doc_id"}
            document_file.write(a.doc_id, properties={**document, "run_id": run_id, "ingested_at": now})
            for paper in rows["write_papers"]:
                for mention in paper["mentions"]:  # one statement per evidence
                    statement = {**mention["properties"], **mention["unit"], "precedence": mention["precedence"]}
                    paper_mentions.write(a.doc_id, paper["paper_id"], properties=statement)
                    spill.add(paper["paper_id"], ("fold", paper["paper_id"], mention))
            for row in rows["write_paper_cites"]:
                _spill_edge(spill, "paper_cites", row["citing"], row["cited"], row["doc_ids"])
            for row in rows["write_claims"]:
                spill.add(row["claim_id"], ("node", "Claim", row["claim_id"], row["properties"]))
                _spill_edge(spill, "makes", row["paper_id"], row["claim_id"], [a.doc_id])
            for claim_id in dict.fromkeys(row["claim_id"] for row in rows["write_claims"]):
                claim_mentions.write(a.doc_id, claim_id, properties={})
            for row in rows["write_sources"]:
                spill.add(row["source_id"], ("node", "Source", row["source_id"], row["properties"]))
                source_mentions.write(a.doc_id, row["source_id"], properties={})
            for row in rows["write_claim_cites"]:
                _spill_edge(spill, "claim_cites", row["claim_id"], row["source_id"], [a.doc_id])
            for row in rows["write_checks"]:
                check = {key: row[key] for key in ("verdict", "confidence", "rationale", "ambiguous")}
                _spill_edge(spill, "checked_against", row["claim_id"], row["source_id"], [a.doc_id], check)
                if row["verdict"] == "supported":
                    _spill_edge(spill, "supports", row["source_id"], row["claim_id"], [a.doc_id])
            for row in rows["write_refers_to"]:
                _spill_edge(spill, "refers_to", row["source_id"], row["paper_id"], [a.doc_id])
    paper_of.clear()  # every document's rows are out: the rest is combined from the spill
    spill.finish()
    combined = _combined_files(out)
    try:
        if workers.pool is None:
            for partition in range(PARTITIONS):
                _write_partition(spill.records(partition), combined)
        else:
            _combine_in_workers(workers, combined)
    finally:
        spill.close()
        for csv_file in combined.values():
            csv_file.handle.close()
    written = [
        document_file,
        paper_mentions,
        claim_mentions,
        source_mentions,
        *evidence_files,
        *combined.values(),
    ]
    counts = {csv.name: csv.rows for csv in written}
    summary.nodes = {label: counts[node_file(label)] for label in NODES}
    for name, (kind, *_) in RELATIONSHIPS.items():
        summary.relationships[kind] = summary.relationships.get(kind, 0) + counts[name]


def _spill_edge(
    spill: _Spill, name: str, start: str, end: str, doc_ids: list[str], properties: dict[str, Any] | None = None
) -> None:
    spill.add(f"{start}\x00{end}", ("edge", name, start, end, doc_ids, properties))


def _combined_files(out: Path, part: int | None = None) -> dict[str, _Csv]:
    return {
        **{label: _Csv.nodes(out, label, part) for label in ("Paper", "Claim", "Source")},
        **{name: _Csv.relationships(out, name, part) for name in _COMBINED_EDGES},
    }


def _combine_in_workers(workers: _Workers, combined: dict[str, _Csv]) -> None:
    """Each partition combined by a worker process into part files of its own, which are
    appended to the CSVs in partition order, as one process writes them."""
    tasks = ((partition,) for partition in range(PARTITIONS))
    for partition, rows in enumerate(workers.map(_combined_part, tasks)):
        for name, csv_file in combined.items():
            part = workers.shared.parts / _Csv.part_name(csv_file.name, partition)
            csv_file.handle.flush()
            with open(part, "rb") as handle:
                shutil.copyfileobj(handle, csv_file.handle.buffer)
            part.unlink()
            csv_file.rows += rows[name]


def _combined_part(shared: _Shared, partition: int) -> dict[str, int]:
    """In a worker process: one partition's rows in part files; how many rows each holds."""
    files = _combined_files(shared.parts, partition)
    try:
        _write_partition(shared.spill.records(partition), files)
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
    for name, found in edges.items():
        for start, end, properties in found.rows():
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
        for key, cell in self.cells:
            value = properties.get(key)
            cells.append("" if value is None else cell(value))
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
