"""Where the bulk load starts to pay: a first ingest of corpora of growing size into the emptied
graph of a Neo4j of its own, by transactions and by the bulk load in turn, each a process of its
own as `paperkg ingest` is (the run's choice left out: its threshold out of reach, or `bulk`),
each size after an untimed warm-up of both.

    .venv/bin/python bench/bulk_threshold.py [--papers 100,300,500,700,1000,2000] [--rounds 5] [--work DIR]

Prints each pair's times and the load average, then per size the medians, their ratio and the
documents (a corpus of N papers has N cards and N / 100 pages). `paperkg.limits.BULK_MIN_DOCUMENTS`
is set from them; not part of the suite.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from paperkg.db import connect
from paperkg.server import Instance

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import NEO4J_ENV, free_port, log

from synth import generate

# A first `paperkg ingest CORPUS` but for the options that fix its path.
INGEST = """
import sys
from paperkg.db import connect
from paperkg.run.ingest import RunOptions, ingest_paths
with connect() as kb:
    ingest_paths(kb, [sys.argv[1]], RunOptions({options}))
"""
PATHS = {"transactions": "bulk_min_documents=sys.maxsize", "bulk": "bulk=True"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", default="100,300,500,700,1000,2000", help="corpus sizes, comma-separated")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--work", default="/tmp/paperkg-bulk-threshold", help="corpora, the Neo4j home, the cache")
    parser.add_argument("--heap", default="2g")
    parser.add_argument("--pagecache", default="2g")
    args = parser.parse_args()
    work = Path(args.work)
    sizes = [int(size) for size in args.papers.split(",")]
    corpora = {}
    for papers in sizes:
        corpus = work / f"corpus-{papers}"
        if not corpus.is_dir():
            generate(corpus, papers=papers, pages=max(1, papers // 100), seed=1)
        corpora[papers] = corpus
    instance = Instance(work / "home")
    instance.start(bolt_port=free_port(), http_port=free_port(), heap=args.heap, pagecache=args.pagecache)
    # The runs' file-hash cache is the benchmark's own, emptied before each (a first load reads every file).
    cache = work / "cache"
    env = {**os.environ, "PAPERKG_HOME": str(instance.home), "XDG_CACHE_HOME": str(cache)}
    for name in NEO4J_ENV:
        env.pop(name, None)
    seconds: dict[tuple[int, str], list[float]] = {}
    try:
        with connect(home=str(instance.home)) as kb:

            def first_load(corpus: Path, options: str) -> float:
                kb.reset()
                shutil.rmtree(cache, ignore_errors=True)
                started = time.perf_counter()
                command = [sys.executable, "-c", INGEST.format(options=options), str(corpus)]
                subprocess.run(command, env=env, check=True)
                return time.perf_counter() - started

            for papers, corpus in corpora.items():
                for options in PATHS.values():  # warm-up
                    first_load(corpus, options)
                for number in range(1, args.rounds + 1):
                    times = {path: first_load(corpus, options) for path, options in PATHS.items()}
                    for path, taken in times.items():
                        seconds.setdefault((papers, path), []).append(taken)
                    load = os.getloadavg()[0]
                    log(
                        f"{papers:,} papers, round {number}: "
                        + ", ".join(f"{path} {taken:.2f} s" for path, taken in times.items())
                        + f" (load {load:.2f})"
                    )
            kb.reset()
    finally:
        instance.stop()
    print("papers  documents  transactions  bulk     transactions / bulk")
    for papers, corpus in corpora.items():
        documents = sum(1 for _ in corpus.iterdir())
        tx, bulk = (statistics.median(seconds[papers, path]) for path in PATHS)
        print(f"{papers:>6,}  {documents:>9,}  {tx:>10.2f} s  {bulk:>6.2f} s  {tx / bulk:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
