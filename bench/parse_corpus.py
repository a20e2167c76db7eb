"""Benchmark: parse a synthetic corpus on one core; print MB/s by wall clock and by CPU time.

    .venv/bin/python bench/parse_corpus.py [--papers 10000] [--runs 3] [--work /tmp/paperkg-parse-bench]

The corpus is `bench/synth.py`'s with pages = papers / 100, as bench/run.py builds it, so the
figure is the one bench/run.py reports as "parse MB/s" (there, one pass, wall clock). The files
are read into memory first: only parsing is timed. Each run parses every document once; the
best run counts. CPU time is printed beside wall time because on a shared machine the wall
clock also counts the time other processes held the core.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from paperkg.parse import ParseError, parse_bytes

from synth import generate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--work", default="/tmp/paperkg-parse-bench")
    args = parser.parse_args()
    corpus = Path(args.work) / f"corpus-{args.papers}-{args.seed}"
    if not (corpus / ".complete").exists():
        generate(corpus, papers=args.papers, pages=max(1, args.papers // 100), seed=args.seed)
        (corpus / ".complete").write_text("")
    documents = [(path.read_bytes(), str(path)) for path in sorted(corpus.glob("*.txt"))]
    megabytes = sum(len(data) for data, _ in documents) / 1e6
    walls, cpus, rejected = [], [], 0
    for _ in range(args.runs):
        wall, cpu = time.perf_counter(), time.process_time()
        for data, path in documents:
            try:
                parse_bytes(data, path)
            except ParseError:
                rejected += 1
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    print(
        f"{corpus}: {len(documents)} documents, {megabytes:.1f} MB, {rejected // args.runs} rejected, "
        f"{args.runs} runs, load average {os.getloadavg()[0]:.1f}"
    )
    print(
        f"wall: best {min(walls):.2f} s = {megabytes / min(walls):.1f} MB/s "
        f"(runs {', '.join(f'{s:.2f}' for s in walls)} s)"
    )
    print(
        f"CPU:  best {min(cpus):.2f} s = {megabytes / min(cpus):.1f} MB/s "
        f"(runs {', '.join(f'{s:.2f}' for s in cpus)} s)"
    )


if __name__ == "__main__":
    main()
