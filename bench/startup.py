"""How long a command takes before it does anything: `paperkg --help` and `paperkg query --list`
(neither connects), each run as a fresh process, as a user or a cron job runs them.

    .venv/bin/python bench/startup.py [--runs 10]

Prints each command's fastest and median wall time; the first hour's target for `--help` is
0.3 s (docs/benchmarks.md#other-benchmarks).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

COMMANDS = (["--help"], ["query", "--list"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    for command in COMMANDS:
        timings = []
        for _ in range(args.runs):
            started = time.perf_counter()
            subprocess.run([sys.executable, "-m", "paperkg.cli", *command], capture_output=True, check=True)
            timings.append(time.perf_counter() - started)
        print(
            f"paperkg {' '.join(command):<14} fastest {min(timings):.3f} s, median {statistics.median(timings):.3f} s "
            f"({args.runs} runs)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
