"""The differential identity check of issue 15 on a synthetic corpus: one command.

    .venv/bin/python bench/identity_check.py --papers 2000 --pages 20 --seed 5 [--identity-cases] [--full]

Generates the corpus (`bench/synth.py`, with `--identity-cases` its planted cases too), starts a
Neo4j of its own in a temporary home on free ports (never the user's or the suite's), builds
the graph every way tests/differential.py lists (orders, batch sizes, ingest / sync / admin
import, another path, a retract-and-re-add history) and compares each full dump with the
reference. Prints, per variant, whether it is the same and, if not, how many nodes and
relationships differ with a few examples, and the time each took. Exit 1 on any difference.
Needs the test extras' environment (`make .venv/.test-extras`): it runs the suite's own dump.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the suite's graph dump and differential check

from conftest import free_port

from paperkg.db import connect
from paperkg.load.schema import apply_schema
from paperkg.server import Instance

from differential import differential_check
from synth import generate

NEO4J_ENV = ("NEO4J_URI", "NEO4J_USERNAME", "NEO4J_PASSWORD", "NEO4J_DATABASE")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", type=int, default=2000)
    parser.add_argument("--pages", type=int, default=20)
    parser.add_argument("--seed", type=int, default=5, help="the corpus's seed, and the shuffles'")
    parser.add_argument("--identity-cases", action="store_true", help="plant the identity cases (synth option)")
    parser.add_argument("--full", action="store_true", help="every shuffled order at every batch size (1, 7, 200)")
    parser.add_argument(
        "--work",
        help="keep the corpus, the Neo4j home and the copies here (default: a temporary directory, removed afterwards)",
    )
    args = parser.parse_args()
    for name in NEO4J_ENV:
        os.environ.pop(name, None)
    work = Path(args.work) if args.work else Path(tempfile.mkdtemp(prefix="paperkg-identity-"))
    began = time.perf_counter()
    try:
        summary = generate(
            work / "corpus", papers=args.papers, pages=args.pages, seed=args.seed, identity_cases=args.identity_cases
        )
        print(
            f"corpus: {summary.cards:,} cards and {summary.pages} pages in {work / 'corpus'}"
            + (f" (identity cases: {summary.truth})" if summary.truth else ""),
            flush=True,
        )
        instance = Instance(work / "home")
        instance.start(bolt_port=free_port(), http_port=free_port())
        try:
            with connect(home=str(instance.home)) as kb:
                apply_schema(kb)
                outcomes = differential_check(
                    kb,
                    work / "corpus",
                    work / "check",
                    seed=args.seed,
                    full=args.full,
                    log=lambda line: print(line, flush=True),
                )
        finally:
            instance.stop()
    finally:
        if not args.work:
            shutil.rmtree(work, ignore_errors=True)
    differing = [outcome.variant for outcome in outcomes if not outcome.equal]
    print(
        f"\n{len(outcomes) - len(differing)} of {len(outcomes)} variants give the reference graph; "
        f"{time.perf_counter() - began:.0f} s in all"
    )
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
