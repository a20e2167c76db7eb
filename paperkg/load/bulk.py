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
disk for the CSV files, removed when the load ends (docs/performance.md measures both).

A load that fails partway removes what it wrote, so the graph is empty again. One that stops
outright (killed, the machine down) leaves its mark on the ingestion lock: whoever takes the
lock over next removes what it wrote (paperkg.run.lock), so no run builds on half a graph.
"""

from __future__ import annotations

import csv
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

from neo4j import Query

from paperkg.corpus.results import DocumentResult
from paperkg.cypher_files import statement, statements
from paperkg.db import KnowledgeBase
from paperkg.errors import PaperkgError
from paperkg.load.admin_import import (
    ARRAY_DELIMITER,
    NODES,
    RELATIONSHIPS,
    node_file,
)

# The export's directory in the server's import directory: this, then the load's run id.
DIRECTORY_PREFIX = "paperkg-bulk-"
# The load's statements carry its run id under this key of their transaction metadata.
TRANSACTION_METADATA = "paperkg_bulk_load"
TERMINATION_WAIT_SECONDS = 60


class BulkLoadError(PaperkgError):
    """The bulk load cannot run here, or failed (and removed what it wrote); the message says why."""


def load_export(kb: KnowledgeBase, directory: Path, load: str) -> None:
    """cypher/bulk_load.cypher over the export in `directory`, a folder of the server's import
    directory, in auto-commit transactions (its statements commit in batches), each marked as
    the bulk load `load`'s (its run id) in its metadata."""
    parameters = {"folder": f"file:///{directory.name}", "delimiter": ARRAY_DELIMITER}
    metadata = {TRANSACTION_METADATA: load}
    with kb.session() as session:
        for text in checked_script(statements("bulk_load"), directory, "cypher/bulk_load.cypher"):
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


def exported_documents(directory: Path) -> Iterator[DocumentResult]:
    """Each document of the export in `directory` as a new one, in the export's order."""
    with open(directory / f"{node_file('Document')}.csv", encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle):
            yield DocumentResult(row["path:string"], "new", doc_id=row["doc_id:ID(Document)"])


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
