"""Benchmark: parse the 275 KB seed claim-check page N times; print mean/min ms and MB/s.

    .venv/bin/python bench/parse_bench.py [N]

The seeds directory is ../shared/seeds from the repository root, or $PAPERKG_SEEDS.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

from paperkg.parse import parse_bytes

SEED_PAGE = "004_75ef50a8eea015b8.txt"


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    seeds = Path(os.environ.get("PAPERKG_SEEDS") or Path(__file__).resolve().parents[1].parent / "shared" / "seeds")
    data = (seeds / SEED_PAGE).read_bytes()
    parse_bytes(data, SEED_PAGE)  # warm-up: imports, regex compilation, pydantic schema build
    timings = []
    for _ in range(runs):
        start = time.perf_counter()
        parse_bytes(data, SEED_PAGE)
        timings.append(time.perf_counter() - start)
    mean, best = statistics.mean(timings), min(timings)
    megabytes = len(data) / 1e6
    print(f"{SEED_PAGE}: {len(data)} bytes, {runs} runs")
    print(f"mean {mean * 1e3:.1f} ms, min {best * 1e3:.1f} ms")
    print(f"{megabytes / mean:.1f} MB/s at the mean, {megabytes / best:.1f} MB/s at the min")


if __name__ == "__main__":
    main()
