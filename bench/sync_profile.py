"""Where the nightly sync's time goes: the 1 % changed `paperkg sync` of bench/run.py, profiled.

    .venv-bench/bin/python bench/sync_profile.py [--papers 50000] [--work /tmp/paperkg-bench]

On a Neo4j of its own (a home under --work), it loads the synthetic corpus of bench/run.py by
`paperkg ingest`, re-ingests it once unchanged (the file-hash cache then knows every file, as
a nightly job's does), changes 1 % of its files as bench/run.py's sync figure does (half
revised, half deleted), and runs `sync_directory` in this process, with:

* the run's phases timed (wall seconds), from discovery to the run's record;
* each write transaction's wall time, its commit included, by the function it runs;
* the server's own time for each statement (the `result_available_after` and
  `result_consumed_after` its summaries report), summed by the cypher/*.cypher file it comes from;
* the client's time in paperkg's functions (cProfile, own time).

Prints the three tables. Not part of the test suite; bench/run.py measures the sync's figure.
"""

from __future__ import annotations

import argparse
import cProfile
import inspect
import os
import pstats
import shutil
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import neo4j
from run import cache_home, changed_files, free_port, measured, synthetic_corpus

from paperkg.cypher_files import statements
from paperkg.db import KnowledgeBase, connect
from paperkg.package_data import data_folder
from paperkg.run import ingest
from paperkg.run.report import RunReport
from paperkg.server import Instance

# The run's steps, by the module attribute each is: a step is timed from call to return.
PHASES = (
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", type=int, default=50_000)
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
    try:
        for what in ("first load", "unchanged re-ingest"):
            run = measured([sys.executable, "-m", "paperkg.cli", "ingest", str(corpus), "--quiet"], instance.home)
            print(f"{what}: {run.seconds:.2f} s", flush=True)
        with changed_files(corpus, args.seed) as (edited, deleted), connect(home=str(instance.home)) as kb:
            phases: dict[str, list[float]] = defaultdict(list)
            server: dict[str, list[float]] = defaultdict(list)
            transactions: dict[str, list[float]] = defaultdict(list)
            profile = cProfile.Profile()
            with timed_phases(phases), server_times(server), transaction_times(transactions):
                started = time.perf_counter()
                profile.enable()
                report = ingest.sync_directory(kb, corpus)
                profile.disable()
                seconds = time.perf_counter() - started
    finally:
        instance.stop()
    statuses = report.totals
    print(f"\nsync of {args.papers:,} papers, {edited} revised and {deleted} deleted: {seconds:.2f} s in this process")
    print(f"documents: {statuses}\n")
    print(table("phase (wall)", phases, seconds))
    print()
    print(table("write transaction (wall, commit included)", transactions))
    print()
    print(table("statement (server time)", server))
    print()
    print(client_table(profile, args.top))
    return 0


@contextmanager
def timed_phases(phases: dict[str, list[float]]) -> Iterator[None]:
    """Each of PHASES timed into `phases` while the context lasts (the attribute put back after)."""
    originals = [(owner, name, getattr(owner, name)) for owner, name in PHASES]
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
    """The server's milliseconds for each statement run in a transaction function, by the name of
    its cypher/ file: read from the results' summary metadata once the run is over (the
    results of a committed transaction can no longer be consumed, but keep what the server said)."""
    names = {text: name for name, texts in _pipeline_statements().items() for text in texts}
    results: list[tuple[str, Any]] = []
    original = neo4j.ManagedTransaction.run

    def run(self: neo4j.ManagedTransaction, query: Any, *args: Any, **kwargs: Any) -> Any:
        result = original(self, query, *args, **kwargs)
        results.append((names.get(str(query), "(other)"), result))
        return result

    neo4j.ManagedTransaction.run = run  # type: ignore[method-assign]
    try:
        yield
    finally:
        neo4j.ManagedTransaction.run = original  # type: ignore[method-assign]
        for name, result in results:
            metadata = result._metadata  # what the server reported when the result ended
            server[name].append((metadata.get("t_first", 0) + metadata.get("t_last", 0)) / 1000)


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
