"""`paperkg ingest --bulk`: the first load of a corpus into an empty graph of the managed server.

A batch ingest resolves identity batch by batch against the graph, and writes what the graph
may already hold with MERGE. Into an empty graph both can be done once for the whole corpus:
the export of `paperkg export --admin-import` resolves identity over every document (one
process per core) and writes the graph as CSV files into the managed server's import
directory; LOAD CSV reads them back with statements that only CREATE (cypher/bulk_load.cypher).
The derived properties and the run follow, as after an offline import (but for the empty
lists, which `LOAD CSV` writes as it reads them), and the server keeps running. The graph is
the one `paperkg ingest` writes (tests/differential.py compares them), and the next `ingest`
or `sync` finds every loaded document unchanged.

It costs what the export costs: memory that grows with the corpus's distinct evidence, and
disk for the CSV files, removed when the load ends (docs/benchmarks.md shows both).

A load that fails partway removes what it wrote, so the graph is empty again. One that stops
outright (killed, the machine down) leaves its mark on the ingestion lock: whoever takes the
lock over next removes what it wrote (paperkg.run.lock), so no run builds on half a graph.
"""

from __future__ import annotations

import csv
import shutil
import time
from collections.abc import Iterator, Sequence
from itertools import islice
from pathlib import Path
from typing import Any

from neo4j import Query
from neo4j.exceptions import Neo4jError

from paperkg.corpus.discovery import PathList
from paperkg.corpus.results import DocumentResult, DocumentResults
from paperkg.cypher_files import statement, statements
from paperkg.db import KnowledgeBase, first_line
from paperkg.errors import PaperkgError
from paperkg.load.admin_import import ARRAY_DELIMITER, NODES, RELATIONSHIPS, export_files, exported_documents, node_file
from paperkg.load.import_run import IMPORT_ACTION, record_import
from paperkg.load.loader import Holder, Loader, LoadOptions, heartbeats
from paperkg.load.schema import store_derived_properties
from paperkg.server import Instance
from paperkg.write_steps import write_step

# The export's directory in the server's import directory: this, then the load's run id.
DIRECTORY_PREFIX = "paperkg-bulk-"
# The load's statements carry its run id under this key of their transaction metadata.
TRANSACTION_METADATA = "paperkg_bulk_load"
TERMINATION_WAIT_SECONDS = 60
RESULTS_PER_PART = 1000  # documents' results the load yields at a time
BULK = "bulk"  # a bulk load's kind, as the ingestion lock marks it unfinished


class BulkLoadError(PaperkgError):
    """The bulk load cannot run here, or failed (and removed what it wrote); the message says why."""


def require_managed(kb: KnowledgeBase) -> Instance:
    """The managed server `kb` connects to: the bulk load writes into its import directory."""
    if kb.managed is None:
        raise BulkLoadError(
            "--bulk writes into the managed Neo4j's import directory, and NEO4J_URI names another server: "
            "ingest without --bulk"
        )
    return kb.managed


class BulkLoader(Loader):
    """Loads documents into the managed server's empty graph through the export and LOAD CSV.
    A load that fails or is interrupted removes what it wrote, and records no run: the graph is
    empty again, as before it began."""

    name = "bulk"
    undone_on_failure = True
    shows_progress = False  # every result comes at the end, after the export's workers and the load

    def __init__(self, kb: KnowledgeBase, holder: Holder, options: LoadOptions | None = None) -> None:
        super().__init__()
        self.kb, self.holder = kb, holder
        self.instance = require_managed(kb)
        self.options = options or LoadOptions()

    def load(self, files: Sequence[Path], run_id: str) -> Iterator[list[DocumentResult]]:
        kb, holder = self.kb, self.holder
        if kb.read("graph_holds_nodes")[0]["holds_nodes"]:
            raise BulkLoadError("--bulk loads into an empty graph, and this one holds nodes: ingest without --bulk")
        directory = self.instance.home / "import" / f"{DIRECTORY_PREFIX}{run_id}"
        # Marked from before the export, so that a load killed at any point leaves no export behind.
        holder.mark_unfinished_load(run_id, BULK)
        try:
            with heartbeats(holder):
                try:
                    write_step()  # the export, into the server's import directory
                    summary = export_files(
                        PathList(files),
                        directory,
                        max_bytes=self.options.max_bytes,
                        processes=self.options.processes,
                        run_id=run_id,
                    )
                    # Read back before the load, which the export's files then no longer need.
                    results = DocumentResults(summary.rejected)
                    results.extend(exported_documents(directory))
                    load_export(kb, directory, run_id)
                    # The derived properties; the schema itself is the run's, applied before the load.
                    write_step()
                    store_derived_properties(kb)
                    recorded = record_import(kb, self.name)
                except BaseException as exc:  # interrupted too: half a graph must not stay
                    # If this fails as well (the server gone), the mark stays with the lock,
                    # which is then not released: the next holder removes what was written.
                    discard_unfinished_load(kb, run_id)
                    holder.mark_unfinished_load(None)
                    if isinstance(exc, Neo4jError):
                        raise BulkLoadError(
                            f"the bulk load failed and what it wrote is removed: {first_line(exc)}"
                        ) from None
                    raise
                holder.mark_unfinished_load(None)
        finally:
            shutil.rmtree(directory, ignore_errors=True)
        self.written.changes = recorded.get(run_id)
        try:
            read_back = iter(results)  # from the spool, a part at a time
            while part := list(islice(read_back, RESULTS_PER_PART)):
                yield part
        finally:
            results.close()

    def run_properties(self) -> dict[str, Any]:
        return {"action": IMPORT_ACTION}


def load_export(kb: KnowledgeBase, directory: Path, load: str) -> None:
    """cypher/bulk_load.cypher over the export in `directory`, a folder of the server's import
    directory, in auto-commit transactions (its statements commit in batches), each marked as
    the bulk load `load`'s (its run id) in its metadata."""
    parameters = {"folder": f"file:///{directory.name}", "delimiter": ARRAY_DELIMITER}
    metadata = {TRANSACTION_METADATA: load}
    with kb.session() as session:
        for text in checked_script(statements("bulk_load"), directory, "cypher/bulk_load.cypher"):
            write_step()
            session.run(Query(text, metadata=metadata), parameters).consume()


def checked_script(script: tuple[str, ...], directory: Path, name: str) -> tuple[str, ...]:
    """`script` (one LOAD CSV statement per CSV file of the export in `directory`: nodes, then
    relationships), checked to read each file and every column of its header (but the
    importer's :LABEL and :TYPE), so that it cannot fall behind admin_import."""
    files = [node_file(label) for label in NODES] + list(RELATIONSHIPS)
    if len(script) != len(files):
        raise BulkLoadError(f"{name} has {len(script)} statements for {len(files)} CSV files")
    for text, file in zip(script, files, strict=True):
        with open(directory / f"{file}.csv", encoding="utf-8", newline="") as handle:
            header = next(csv.reader(handle))
        unread = [column for column in header if column not in (":LABEL", ":TYPE") and f"row.`{column}`" not in text]
        if f"'/{file}.csv'" not in text or unread:
            raise BulkLoadError(
                f"{name}: the statement for {file}.csv "
                + (f"does not read {', '.join(unread)}" if unread else "reads another file")
            )
    return script


def discard_unfinished_load(kb: KnowledgeBase, load: str) -> None:
    """Remove what the bulk load `load` (its run id) wrote, and its export when the managed
    server's import directory still holds it: the load began on an empty graph. Its statement
    may still be running on the server (a client's death does not end it): it is terminated
    first, so that nothing it writes lands after the graph is emptied."""
    deadline = time.monotonic() + TERMINATION_WAIT_SECONDS
    while True:
        rows = kb.execute(statement("bulk_load_transactions"), key=TRANSACTION_METADATA, load=load)
        statements_of_load = {row["id"] for row in rows if row["of_load"]}
        live = [row for row in rows if (row["id"] in statements_of_load or row["outer"] in statements_of_load)]
        running = [row["id"] for row in live if not row["terminated"]]
        if not running:
            break
        if time.monotonic() > deadline:
            raise BulkLoadError(f"the bulk load's transactions ({', '.join(running)}) did not end when terminated")
        kb.execute(statement("terminate_transactions"), ids=running)
        time.sleep(0.1)
    with kb.session() as session:
        session.run(statement("discard_unfinished_load")).consume()
    if kb.managed is not None:
        shutil.rmtree(kb.managed.home / "import" / f"{DIRECTORY_PREFIX}{load}", ignore_errors=True)
