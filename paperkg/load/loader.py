"""The loaders: the ways documents are written into the graph, behind one interface.

A run (paperkg.run) finds the files and holds the lock; a loader writes the documents. Every
loader writes the same rows: each document is read by `paperkg.corpus.reading.read_document`,
its mentions are resolved to works by `paperkg.graph.identity`, and the rows of its nodes and
relationships come from `paperkg.graph.batch.batch_rows`; the properties derived across
documents (titles for search, claim statuses and counts) are stored by the same statements
(cypher/title_lower, claim_status, claim_counts) whichever loader wrote. So the graph is the same
whichever loader wrote it (tests/differential.py compares them).

- `TransactionLoader` (paperkg.load.incremental): a transaction a batch, identity resolved
  against the graph; for `ingest` and `sync` into a graph that holds documents.
- `BulkLoader` (paperkg.load.bulk): a first load into the managed server's empty graph, identity
  resolved over the whole corpus by the export, then LOAD CSV that only creates.
- `AdminImportLoader` (paperkg.load.admin_import): the same export, imported offline by
  neo4j-admin into the managed server, which is stopped for it.

A fourth loader is one class: `load` writes the files' documents and yields their results.
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Protocol

from paperkg.corpus.results import DocumentResult
from paperkg.limits import DOCS_PER_TRANSACTION, MAX_DOCUMENT_BYTES


@dataclass(frozen=True)
class LoadOptions:
    """How a loader reads and batches: the largest document it reads (bytes), the documents a
    transaction holds, and the export's processes (None: one per CPU)."""

    max_bytes: int = MAX_DOCUMENT_BYTES
    docs_per_transaction: int = DOCS_PER_TRANSACTION
    processes: int | None = None


# A holder shows the lock alive this many times in the time after which it is taken as stale.
HEARTBEATS_PER_STALE_AFTER = 10
LOCK_NAME = "ingest"  # the ingestion lock's node's name


class Holder(Protocol):
    """What a loader needs of the ingestion lock its run holds (paperkg.run.lock.IngestLock):
    who holds it (owner, host, pid, process start: an offline import writes the new graph's
    lock held by the same holder), to show it alive, and to mark a load that must be finished
    or undone if its holder dies."""

    stale_after: int
    holder: dict[str, Any]

    def heartbeat(self, now: bool = False) -> None: ...

    def mark_unfinished_load(self, load: str | None, kind: str | None = None) -> None: ...


@contextmanager
def heartbeats(holder: Holder) -> Iterator[None]:
    """Keep the lock shown alive while a step that does not return for minutes runs (an export,
    a load, an offline import); a lost lock is raised when the step ends. The server must stay
    up throughout: a heartbeat that cannot reach it counts as the lock lost."""
    stop = threading.Event()
    lost: list[Exception] = []

    def beat() -> None:
        while not stop.wait(holder.stale_after / HEARTBEATS_PER_STALE_AFTER):
            try:
                holder.heartbeat()
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


@dataclass
class Written:
    """What a loader's writes did besides landing documents: the nodes merged into others and
    split (identity), and the changes its change sets hold (None: not recorded)."""

    identity: Counter = field(default_factory=Counter)
    changes: int | None = None
    unchanged_not_read: int = 0  # documents known unchanged by their files' stat alone


class Loader(ABC):
    """A way of writing documents into the graph."""

    # The loader's name, as `paperkg ingest` reports the path it took.
    name: ClassVar[str]
    # A load that fails removes what it wrote, so its run is not recorded either.
    undone_on_failure: ClassVar[bool] = False
    # Its documents' results come as they land, so a progress bar can follow them.
    shows_progress: ClassVar[bool] = True

    def __init__(self) -> None:
        self.written = Written()

    @abstractmethod
    def load(self, files: Sequence[Path], run_id: str) -> Iterator[list[DocumentResult]]:
        """Write the documents of `files` as the run `run_id`; their results, a part at a time,
        each part once its documents have landed (new, changed, unchanged) or been rejected. A
        document that cannot be read, parsed or written is rejected alone: the others land."""

    def finish(self) -> None:  # noqa: B027 (most loaders have nothing left to do)
        """Called by the run once every write of it is done (the loader's, and the retractions
        of a sync): what the loader does last."""

    def run_properties(self) -> dict[str, Any]:
        """What the run's IngestRun records of this loader, beside its times and totals."""
        return {}
