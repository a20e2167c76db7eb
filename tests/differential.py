"""The differential check of issue 15: the graph must be a function of the set of documents.

One corpus, the graph built many ways, each full dump (graph_dump: papers named by their
identifiers, run bookkeeping and document paths left out) compared with a reference built by
one plain `ingest` of the directory:

* order: the files ingested in shuffled orders (named one by one, so discovery keeps the order);
* batching: transactions of 1, 7 and 200 documents;
* path: `sync`, `ingest --bulk` (export, LOAD CSV), the admin import (export, neo4j-admin, in
  an instance of its own), the corpus copied elsewhere and ingested there, and synced again
  from there after a sync of the original;
* mixed paths: every other file loaded by a plain `ingest` that takes the bulk path on its own
  (into the empty graph, its threshold lowered to their number), then the rest by the next
  `ingest`, which takes transactions (the graph holds nodes); each half first;
* history: everything loaded in bulk, or synced, then 10 % of the files deleted and synced
  (against a reference built from the other 90 % alone), put back and synced.

`differential_check` runs it on a knowledge base (emptied before each variant and after the
last) and returns one `Outcome` per variant; tests/test_differential.py calls it on a small
corpus, bench/identity_check.py on a large one.
"""

from __future__ import annotations

import random
import shutil
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from conftest import free_port

from paperkg.corpus.discovery import discover
from paperkg.db import KnowledgeBase, connect
from paperkg.limits import DOCS_PER_TRANSACTION
from paperkg.load.admin_import import export_admin_import, finish_import, import_into
from paperkg.load.bulk import BulkLoader
from paperkg.load.incremental import TransactionLoader
from paperkg.run.ingest import RunOptions, bulk_ingest, ingest_paths, sync_directory
from paperkg.server import Instance

from graph_dump import named

BATCH_SIZES = (1, 7, DOCS_PER_TRANSACTION)
ORDERS = 5
RETRACTED = 0.10
EXAMPLES = 3  # per kind of difference


@dataclass
class Graph:
    """A dump as multisets, so that duplicate nodes count rather than collapse."""

    nodes: Counter
    relationships: Counter


def graph_of(kb: KnowledgeBase) -> Graph:
    nodes, relationships = named(kb)
    return Graph(Counter(nodes), Counter(relationships))


@dataclass
class Difference:
    """What one kind of element (nodes or relationships) differs by, against the reference."""

    missing: list[tuple] = field(default_factory=list)  # names only the reference has
    extra: list[tuple] = field(default_factory=list)  # names only the variant has
    changed: list[tuple] = field(default_factory=list)  # (name, reference properties, variant properties)
    duplicated: list[tuple] = field(default_factory=list)  # names more elements hold than in the reference

    def __bool__(self) -> bool:
        return bool(self.missing or self.extra or self.changed or self.duplicated)

    def counts(self) -> str:
        """`3 missing (Paper 2, Document 1), …`: how many of each kind, and of which labels or types."""
        parts = []
        for what in ("missing", "extra", "changed", "duplicated"):
            names = [item[0] if what == "changed" else item for item in getattr(self, what)]
            if names:
                kinds = Counter(map(_kind, names)).most_common()
                parts.append(f"{len(names):,} {what} (" + ", ".join(f"{kind} {count:,}" for kind, count in kinds) + ")")
        return ", ".join(parts) or "none"


def difference(reference: Counter, other: Counter, key: Callable[[tuple], tuple]) -> Difference:
    """Elements grouped by `key` (a node's name; a relationship's ends and type), then compared."""

    def grouped(elements: Counter) -> dict[tuple, Counter]:
        groups: dict[tuple, Counter] = {}
        for element, count in elements.items():
            groups.setdefault(key(element), Counter())[element[-1]] += count
        return groups

    ours, theirs = grouped(reference), grouped(other)
    found = Difference()
    # Papers, claims and sources first, documents and their MENTIONS last: the examples then show works.
    for name in sorted(ours.keys() | theirs.keys(), key=lambda name: ("Document" in _kind(name), repr(name))):
        mine, yours = ours.get(name), theirs.get(name)
        if yours is None:
            found.missing.append(name)
        elif mine is None:
            found.extra.append(name)
        elif sum(yours.values()) > sum(mine.values()):
            found.duplicated.append(name)
        elif mine != yours:
            found.changed.append((name, sorted(mine), sorted(yours)))
    return found


@dataclass
class Outcome:
    variant: str
    seconds: float
    nodes: Difference
    relationships: Difference

    @property
    def equal(self) -> bool:
        return not (self.nodes or self.relationships)

    def describe(self) -> str:
        head = f"{'same' if self.equal else 'DIFFERS':8}{self.variant:44}{self.seconds:8.1f} s"
        if self.equal:
            return head
        lines = [head, f"        nodes: {self.nodes.counts()}; relationships: {self.relationships.counts()}"]
        for what, found in (("node", self.nodes), ("relationship", self.relationships)):
            lines += [
                f"          {kind} {what}: {_element(item)}"
                for kind in ("missing", "extra", "duplicated")
                for item in getattr(found, kind)[:EXAMPLES]
            ]
            lines += [
                f"          changed {what}: {_element(name)}: {_changes(mine, yours)}"
                for name, mine, yours in found.changed[:EXAMPLES]
            ]
        return "\n".join(lines)


def _kind(name: tuple) -> str:
    """A node's label, or a relationship's `Start-TYPE->End`."""
    if isinstance(name[0], tuple):
        return f"{name[0][0]}-{name[1]}->{name[2][0]}"
    return name[0]


def _element(name: tuple) -> str:
    if isinstance(name[0], tuple):  # a relationship: (start, type, end)
        return f"{_element(name[0])} -[{name[1]}]-> {_element(name[2])}"
    if name[0] == "Paper":
        parts = [f"{label}={value}" for label, value in zip(("arxiv", "doi", "title", "fallback"), name[1:]) if value]
        return "Paper(" + ", ".join(_short(part) for part in parts) + ")"
    return f"{name[0]}({_short(str(name[1]))})"


def _changes(mine: list[tuple], yours: list[tuple]) -> str:
    if len(mine) != 1 or len(yours) != 1:
        return f"{len(mine)} versions in the reference, {len(yours)} here"
    before, after = dict(mine[0]), dict(yours[0])
    keys = sorted(key for key in before.keys() | after.keys() if before.get(key) != after.get(key))
    return "; ".join(f"{key} {_short(before.get(key, '-'))} → {_short(after.get(key, '-'))}" for key in keys)


def _short(text: str, limit: int = 70) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def imported_graph(export: Path, home: Path) -> Graph:
    """The graph neo4j-admin imports from an export, in a Neo4j of its own (started, dumped, stopped)."""
    instance = Instance(home)
    import_into(instance, export)
    instance.start(bolt_port=free_port(), http_port=free_port())
    try:
        with connect(home=str(home)) as kb:
            finish_import(kb)
            return graph_of(kb)
    finally:
        instance.stop()


def mixed_paths(kb: KnowledgeBase, first: list[Path], then: list[Path]) -> None:
    """`first` loaded into the empty graph by a plain ingest that takes the bulk path on its own
    (its threshold at their number), then `then` by one that takes transactions, as the graph
    now holds nodes."""
    options = RunOptions(bulk_min_documents=len(first))
    for paths, expected in ((first, BulkLoader.name), (then, TransactionLoader.name)):
        loader = ingest_paths(kb, paths, options).loader
        if loader != expected:
            raise AssertionError(f"ingest of {len(paths)} files took the {loader} path, not the {expected} path")


def differential_check(
    kb: KnowledgeBase, corpus: Path, work: Path, *, seed: int, full: bool = False, log: Callable[[str], None] = print
) -> list[Outcome]:
    """Build the graph of `corpus` every way above and compare each with the reference.

    `work` (empty or missing) holds copies of the corpus, the export and the admin import's home.
    `corpus` is changed and put back (the history variant deletes and restores files). By
    default each order is ingested at 200 documents a transaction and each batch size in sorted
    order; `full` ingests every order at every batch size.
    """
    rng = random.Random(seed)
    work.mkdir(parents=True, exist_ok=True)
    files = discover([corpus]).files
    outcomes: list[Outcome] = []

    def built(build: Callable[[], None]) -> tuple[Graph, float]:
        kb.reset()
        started = time.perf_counter()
        build()
        return graph_of(kb), time.perf_counter() - started

    def compare(variant: str, reference: Graph, graph: Graph, seconds: float) -> None:
        outcome = Outcome(
            variant,
            seconds,
            difference(reference.nodes, graph.nodes, key=lambda node: node[0]),
            difference(reference.relationships, graph.relationships, key=lambda rel: rel[:3]),
        )
        outcomes.append(outcome)
        log(outcome.describe())

    def variant(name: str, reference: Graph, build: Callable[[], None]) -> None:
        compare(name, reference, *built(build))

    reference, seconds = built(lambda: ingest_paths(kb, [corpus]))
    log(f"{'':8}{'reference: ingest DIR':44}{seconds:8.1f} s")
    for size in BATCH_SIZES[:-1]:
        variant(
            f"ingest DIR, batch {size}",
            reference,
            lambda: ingest_paths(kb, [corpus], RunOptions(docs_per_transaction=size)),
        )
    for order in range(1, ORDERS + 1):
        shuffled = rng.sample(files, len(files))
        for size in BATCH_SIZES if full else BATCH_SIZES[-1:]:
            variant(
                f"ingest shuffled order {order}, batch {size}",
                reference,
                lambda: ingest_paths(kb, shuffled, RunOptions(docs_per_transaction=size)),
            )
    variant("sync DIR", reference, lambda: sync_directory(kb, corpus))
    variant("ingest --bulk DIR (export, LOAD CSV)", reference, lambda: bulk_ingest(kb, [corpus]))
    even, odd = files[::2], files[1::2]  # every other file: cards and pages in each half
    for name, first, then in (("even", even, odd), ("odd", odd, even)):
        variant(f"{name} files in bulk, then the rest by tx", reference, lambda: mixed_paths(kb, first, then))

    started = time.perf_counter()
    export_admin_import([corpus], work / "export")
    compare(
        "admin import (export, neo4j-admin)",
        reference,
        imported_graph(work / "export", work / "imported"),
        time.perf_counter() - started,
    )

    elsewhere = work / "elsewhere"
    shutil.copytree(corpus, elsewhere)
    variant("ingest a copy at another path", reference, lambda: ingest_paths(kb, [elsewhere]))
    variant(
        "sync DIR, then sync the copy", reference, lambda: (sync_directory(kb, corpus), sync_directory(kb, elsewhere))
    )

    retracted = set(rng.sample(files, max(1, round(len(files) * RETRACTED))))
    kept = [path for path in files if path not in retracted]
    rest, seconds = built(lambda: ingest_paths(kb, kept))
    log(f"{'':8}{f'reference: ingest the other {len(kept):,} files':44}{seconds:8.1f} s")
    held = {path: work / "held-back" / str(index) for index, path in enumerate(sorted(retracted))}
    (work / "held-back").mkdir()
    # The sync's history last: the variant after it puts the files back on the graph it leaves.
    for first, load in (
        ("ingest --bulk", lambda: bulk_ingest(kb, [corpus])),
        ("sync", lambda: sync_directory(kb, corpus)),
    ):
        kb.reset()
        started = time.perf_counter()
        load()
        for path, away in held.items():
            shutil.move(path, away)
        try:
            sync_directory(kb, corpus)
            compare(
                f"history: {first}, delete {len(retracted):,} files, sync",
                rest,
                graph_of(kb),
                time.perf_counter() - started,
            )
        finally:
            for path, away in held.items():
                shutil.move(away, path)
    started = time.perf_counter()
    sync_directory(kb, corpus)
    compare("history: ... put them back, sync", reference, graph_of(kb), time.perf_counter() - started)
    kb.reset()
    return outcomes
