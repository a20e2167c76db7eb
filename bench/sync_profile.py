"""Where the nightly sync's time goes: the 1 % changed `paperkg sync` of bench/run.py, profiled;
with --first-load, the first `paperkg ingest` of the corpus instead; with --reingest, an
`ingest` of the corpus unchanged.

    .venv-bench/bin/python bench/sync_profile.py [--papers 50000] [--first-load | --reingest] [--work /tmp/paperkg-bench]

On a Neo4j of its own (a home under --work), it loads the synthetic corpus of bench/run.py by
`paperkg ingest`, re-ingests it once unchanged (the file-hash cache then knows every file, as
a nightly job's does), changes 1 % of its files as bench/run.py's sync figure does (half
revised, half deleted), and runs `sync_directory` in this process, with:

* the run's phases timed (wall seconds), from discovery to the run's record;
* each write transaction's wall time, its commit included, by the function it runs;
* the server's own time for each statement (the `result_available_after` and
  `result_consumed_after` its summaries report), summed by the cypher/*.cypher file it comes from;
* the client's time in paperkg's functions (cProfile, own time).

With --first-load, the corpus is loaded by `ingest_paths` in this process into the empty graph,
by the path it takes on its own (the bulk load from 1,000 documents, the offline import from
20,000), after the warm-up corpus of bench/run.py has been loaded by the bulk load and removed
in the same server, and the server is idle again, as bench/run.py's first loads are: its
phases, the bulk load's or the offline import's steps among them, and the server's time for
each statement, those the bulk load runs outside transaction functions included; not the
client's functions (the export's worker processes, forked from this one, would run profiled
too).

With --reingest, the corpus loaded and re-ingested once as for the sync, a third `ingest` of it,
unchanged, runs in this process: the sync's tables, and among the phases the reading thread's
steps (the files' hashes from the file-hash cache, the lookups of the documents at their paths,
each file's result) and the main thread's spooling of the results, which overlap.

Prints the tables. Not part of the test suite; bench/run.py measures the sync's and the
re-ingest's figures.
"""

from __future__ import annotations

import argparse
import cProfile
import inspect
import os
import pstats
import re
import shutil
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import neo4j
from run import (
    WARM_UP_PAPERS,
    cache_home,
    changed_files,
    free_port,
    idle_server,
    measured,
    synthetic_corpus,
    warm_up_corpus,
)

from paperkg.corpus import files
from paperkg.corpus.results import DocumentResults
from paperkg.cypher_files import statements
from paperkg.db import KnowledgeBase, connect
from paperkg.load import admin_import, bulk, incremental
from paperkg.package_data import data_folder
from paperkg.run import ingest
from paperkg.run.report import RunReport
from paperkg.server import Instance

# The run's steps, by the module attribute each is: a step is timed from call to return.
SYNC_PHASES = (
    (ingest, "discover"),
    (ingest, "apply_schema"),
    (ingest, "check_graph_format"),
    (ingest, "_loader"),
    (KnowledgeBase, "stats"),
    (ingest.TransactionLoader, "load"),
    (ingest, "_retract_stale"),
    (ingest.TransactionLoader, "retract"),
    (ingest.TransactionLoader, "finish"),
    (ingest, "_refresh_answers"),
    (RunReport, "record"),
)
# An unchanged re-ingest's steps: the sync's, and those of the reading thread and of the spool.
REINGEST_PHASES = (
    *SYNC_PHASES,
    (files.FileHashes, "digests"),
    (incremental, "_at_paths"),
    (incremental, "known_documents"),
    (incremental, "read_document"),
    (DocumentResults, "extend"),
)
# A first load's steps: the bulk load's and the offline import's among them.
FIRST_LOAD_PHASES = (
    (ingest, "discover"),
    (ingest, "apply_schema"),
    (ingest, "check_graph_format"),
    (ingest, "_loader"),
    (KnowledgeBase, "stats"),
    (bulk, "export_files"),
    (bulk, "exported_documents"),
    (bulk, "load_export"),
    (bulk, "store_derived_properties"),
    (bulk, "record_import"),
    (admin_import, "export_files"),
    (admin_import, "import_into"),
    (Instance, "stop"),
    (Instance, "start"),
    (admin_import, "finish_import"),
    (ingest, "_refresh_answers"),
    (RunReport, "record"),
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", type=int, default=50_000)
    profiled_run = parser.add_mutually_exclusive_group()
    profiled_run.add_argument("--first-load", action="store_true", help="profile the first ingest instead of the sync")
    profiled_run.add_argument("--reingest", action="store_true", help="profile an unchanged ingest instead of the sync")
    parser.add_argument("--work", default="/tmp/paperkg-bench", help="corpora and the profile's Neo4j home")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--heap", default="2g")
    parser.add_argument("--pagecache", default="2g")
    parser.add_argument("--top", type=int, default=25, help="rows of the client's profile")
    args = parser.parse_args()
    work = Path(args.work)
    corpus = synthetic_corpus(work, args.papers, args.seed)
    instance = Instance(work / "profile-home")
    instance.stop()
    shutil.rmtree(instance.home / "data", ignore_errors=True)
    os.environ["XDG_CACHE_HOME"] = str(cache_home(instance.home))
    shutil.rmtree(cache_home(instance.home) / "paperkg", ignore_errors=True)
    instance.start(bolt_port=free_port(), http_port=free_port(), heap=args.heap, pagecache=args.pagecache)
    phases: dict[str, list[float]] = defaultdict(list)
    server: dict[str, list[float]] = defaultdict(list)
    transactions: dict[str, list[float]] = defaultdict(list)
    # Not for a first load: its export's worker processes, forked while it ran, would run under it too.
    profile = None if args.first_load else cProfile.Profile()

    def profiled(run: Callable[[], RunReport]) -> tuple[RunReport, float]:
        steps = FIRST_LOAD_PHASES if args.first_load else REINGEST_PHASES if args.reingest else SYNC_PHASES
        with timed_phases(phases, steps), server_times(server), transaction_times(transactions):
            started = time.perf_counter()
            if profile is not None:
                profile.enable()
            report = run()
            if profile is not None:
                profile.disable()
            return report, time.perf_counter() - started

    try:
        if args.first_load:
            with connect(home=str(instance.home)) as kb:
                ingest.bulk_ingest(kb, [warm_up_corpus(work, WARM_UP_PAPERS, args.seed)])
                kb.reset()
                shutil.rmtree(cache_home(instance.home) / "paperkg")  # a first ingest reads every file
                idle_server(instance)  # as bench/run.py's first loads are timed: once the server is idle
                report, seconds = profiled(lambda: ingest.ingest_paths(kb, [corpus]))
            heading = f"first ingest of {args.papers:,} papers, by its {report.loader} loader"
        else:
            for what in ("first load", "unchanged re-ingest"):
                run = measured([sys.executable, "-m", "paperkg.cli", "ingest", str(corpus), "--quiet"], instance.home)
                print(f"{what}: {run.seconds:.2f} s", flush=True)
            if args.reingest:
                with connect(home=str(instance.home)) as kb:
                    report, seconds = profiled(lambda: ingest.ingest_paths(kb, [corpus]))
                heading = f"unchanged re-ingest of {args.papers:,} papers"
            else:
                with changed_files(corpus, args.seed) as (edited, deleted), connect(home=str(instance.home)) as kb:
                    report, seconds = profiled(lambda: ingest.sync_directory(kb, corpus))
                heading = f"sync of {args.papers:,} papers, {edited} revised and {deleted} deleted"
    finally:
        instance.stop()
    print(f"\n{heading}: {seconds:.2f} s in this process")
    print(f"documents: {report.totals}\n")
    print(table("phase (wall)", phases, seconds))
    print()
    print(table("write transaction (wall, commit included)", transactions))
    print()
    print(table("statement (server time)", server))
    if profile is not None:
        print()
        print(client_table(profile, args.top))
    return 0


@contextmanager
def timed_phases(phases: dict[str, list[float]], steps: tuple[tuple[Any, str], ...]) -> Iterator[None]:
    """Each of `steps` timed into `phases` while the context lasts (the attribute put back after)."""
    originals = [(owner, name, getattr(owner, name)) for owner, name in steps]
    for owner, name, function in originals:
        setattr(owner, name, _timing(f"{getattr(owner, '__name__', owner)}.{name}", function, phases))
    try:
        yield
    finally:
        for owner, name, function in originals:
            setattr(owner, name, function)


def _timing(label: str, function: Callable, phases: dict[str, list[float]]) -> Callable:
    if inspect.isgeneratorfunction(function):  # timed over its whole iteration

        def generator(*args: Any, **kwargs: Any) -> Iterator[Any]:
            started = time.perf_counter()
            try:
                yield from function(*args, **kwargs)
            finally:
                phases[label].append(time.perf_counter() - started)

        return generator

    def call(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            phases[label].append(time.perf_counter() - started)

    return call


@contextmanager
def server_times(server: dict[str, list[float]]) -> Iterator[None]:
    """The server's milliseconds for each statement, run in a transaction function or on its own
    (the bulk load's LOAD CSV), by the name of its cypher/ file (and the CSV file a LOAD CSV
    reads): read from the results' summary metadata once the run is over (the results of a
    committed transaction can no longer be consumed, but keep what the server said)."""
    names = {text: _label(name, text) for name, texts in _pipeline_statements().items() for text in texts}
    results: list[tuple[str, Any]] = []
    originals = {owner: owner.run for owner in (neo4j.ManagedTransaction, neo4j.Session)}

    def recording(original: Callable) -> Callable:
        def run(self: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
            result = original(self, query, *args, **kwargs)
            text = query.text if isinstance(query, neo4j.Query) else str(query)
            results.append((names.get(text, "(other)"), result))
            return result

        return run

    for owner, original in originals.items():
        owner.run = recording(original)  # type: ignore[method-assign]
    try:
        yield
    finally:
        for owner, original in originals.items():
            owner.run = original  # type: ignore[method-assign]
        for name, result in results:
            metadata = result._metadata  # what the server reported when the result ended
            server[name].append((metadata.get("t_first", 0) + metadata.get("t_last", 0)) / 1000)


def _label(name: str, text: str) -> str:
    read = re.search(r"'/(\w+\.csv)'", text)
    return f"{name} ({read[1]})" if read else name


def _pipeline_statements() -> dict[str, tuple[str, ...]]:
    """The statements of every cypher/ file, by its name, from paperkg's own registry."""
    names = (entry.name.removesuffix(".cypher") for entry in data_folder("cypher").iterdir())
    return {name: statements(name) for name in names}


@contextmanager
def transaction_times(transactions: dict[str, list[float]]) -> Iterator[None]:
    """Each `execute_write` timed, retries and commit included, by its function's name."""
    original = neo4j.Session.execute_write

    def execute_write(self: neo4j.Session, function: Callable, *args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return original(self, function, *args, **kwargs)
        finally:
            transactions[function.__name__].append(time.perf_counter() - started)

    neo4j.Session.execute_write = execute_write  # type: ignore[method-assign]
    try:
        yield
    finally:
        neo4j.Session.execute_write = original  # type: ignore[method-assign]


def table(heading: str, times: dict[str, list[float]], total: float | None = None) -> str:
    """Calls and seconds by name, largest first; each one's share of `total` (default: their sum)."""
    summed = sum(sum(each) for each in times.values())
    lines = [f"{heading:<45} {'calls':>6} {'seconds':>9} {'share':>7}"]
    for name, each in sorted(times.items(), key=lambda item: -sum(item[1])):
        lines.append(f"{name:<45} {len(each):>6} {sum(each):>9.2f} {sum(each) / (total or summed):>7.1%}")
    if total is None:  # phases nest: their sum is no total
        lines.append(f"{'all':<45} {sum(map(len, times.values())):>6} {summed:>9.2f}")
    return "\n".join(lines)


def client_table(profile: cProfile.Profile, top: int) -> str:
    """paperkg's functions by their own time in this process's threads that cProfile saw
    (the main thread: the writes and the run's steps; the reading thread is not profiled)."""
    stats = pstats.Stats(profile)
    rows = []
    for (file, _line, function), (_, calls, own, cumulative, _) in stats.stats.items():  # type: ignore[attr-defined]
        if "/paperkg/" in file:
            rows.append((own, cumulative, calls, f"{Path(file).parent.name}/{Path(file).name}:{function}"))
    rows.sort(reverse=True)
    lines = [f"{'paperkg function (client, main thread)':<60} {'calls':>7} {'own s':>7} {'cum s':>7}"]
    for own, cumulative, calls, label in rows[:top]:
        lines.append(f"{label:<60} {calls:>7} {own:>7.2f} {cumulative:>7.2f}")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
