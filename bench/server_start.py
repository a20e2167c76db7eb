"""What a start of the managed server costs, as paperkg starts it and as the test suite starts it
(`SUITE_JVM_OPTIONS` in tests/conftest.py, given to the JVM as JAVA_TOOL_OPTIONS).

    .venv/bin/python bench/server_start.py [--starts 3]

For each, in a Neo4j home of its own: the server started `--starts` times after the start that
creates its databases, and after each start `paperkg ingest examples/corpus` in this process on
the just-started server (every statement planned for the first time), then the server stopped.
Prints the wall seconds and the server's CPU seconds (its process's user and system time) of each
start, until Bolt answers, and of the ingest after it; the medians, and the CPU the suite's
options save. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the suite's JVM options

from conftest import SUITE_JVM_OPTIONS
from run import free_port, process_cpu_seconds

from paperkg.db import connect
from paperkg.load.schema import apply_schema
from paperkg.run.ingest import ingest_paths
from paperkg.server import Instance

CORPUS = ROOT / "examples" / "corpus"


def measure(java_options: str, starts: int, work: Path) -> list[tuple[float, float, float, float]]:
    """(start wall, start CPU, ingest wall, ingest CPU) of each start after the first."""
    if java_options:
        os.environ["JAVA_TOOL_OPTIONS"] = java_options
    else:
        os.environ.pop("JAVA_TOOL_OPTIONS", None)
    home = work / "home"
    shutil.rmtree(home, ignore_errors=True)
    os.environ["PAPERKG_HOME"] = str(home)
    instance = Instance(home)
    instance.start(bolt_port=free_port(), http_port=free_port())
    with connect(home=str(home)) as kb:
        apply_schema(kb)
    instance.stop()
    rows = []
    for _ in range(starts):
        started = time.perf_counter()
        instance.start()
        start_wall = time.perf_counter() - started
        pid = instance.pid()
        assert pid is not None
        start_cpu = process_cpu_seconds(pid)
        try:
            with connect(home=str(home)) as kb:
                kb.reset()
                started = time.perf_counter()
                ingest_paths(kb, [CORPUS])
                ingest_wall = time.perf_counter() - started
            rows.append((start_wall, start_cpu, ingest_wall, process_cpu_seconds(pid) - start_cpu))
        finally:
            instance.stop()
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=3)
    args = parser.parse_args()
    medians = {}
    with tempfile.TemporaryDirectory(prefix="paperkg-server-start-") as work:
        for name, options in (("as paperkg starts it", ""), ("as the suite starts it", SUITE_JVM_OPTIONS)):
            rows = measure(options, args.starts, Path(work))
            print(f"{name}{f' ({options})' if options else ''}")
            print(f"  {'start s':>8} {'CPU s':>7} {'ingest s':>9} {'CPU s':>7}")
            for row in rows:
                print("  " + " ".join(f"{value:{width}.2f}" for value, width in zip(row, (8, 7, 9, 7))))
            medians[name] = [statistics.median(column) for column in zip(*rows)]
            print("  median " + ", ".join(f"{value:.2f}" for value in medians[name]))
    plain, suite = medians.values()
    print(
        f"the suite's options: {suite[1] + suite[3]:.1f} CPU seconds a start and its first ingest, "
        f"against {plain[1] + plain[3]:.1f} ({1 - (suite[1] + suite[3]) / (plain[1] + plain[3]):.0%} less)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
