"""Issue 20's headline ratio alone: first loads of one corpus, a hand-written `LOAD CSV` and
`paperkg ingest` (and with --bulk `paperkg ingest --bulk`), alternating, each into a fresh database after a warm-up in the same server
(bench/run.py's `Bench.first_load`, without the benchmark's other stages).

    .venv/bin/python bench/first_load.py --papers 10000 [--pairs 3] [--bulk] [--warm-up-papers 300] [--work DIR]

Prints each pair's times, the load average at each start and their ratio, the server's CPU
seconds by thread (its statements' threads, the JIT's compilers, the garbage collector) and
the time its threads waited for a core, how many of the machine's cores were busy, the
ingest's own CPU, then the ratio of the medians;
not part of the suite.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

from paperkg.limits import DOCS_PER_TRANSACTION
from paperkg.server import Instance

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import WARM_UP_PAPERS, Bench, log


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", type=int, default=10000)
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--work", default="/tmp/paperkg-bench", help="corpora, the Neo4j home and CSV files")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--heap", default="2g")
    parser.add_argument("--pagecache", default="2g")
    parser.add_argument("--batch", type=int, default=DOCS_PER_TRANSACTION)
    parser.add_argument("--warm-up-papers", type=int, default=WARM_UP_PAPERS)
    parser.add_argument("--bulk", action="store_true", help="also `paperkg ingest --bulk` in each pair")
    args = parser.parse_args()
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    bench = Bench(Instance(work / "home"), args, work)
    corpus, _ = bench.corpus(args.papers, work)
    export_dir = bench.instance.home / "import" / corpus.name
    loads, ingests, bulks = [], [], []
    try:
        bench.start()
        bench.export(corpus, export_dir)
        if not bench.warm_export.exists():
            bench.export(bench.warm_corpus, bench.warm_export)
        for pair in range(1, args.pairs + 1):
            loads.append(bench.first_load(bench.load_csv, bench.warm_export, export_dir))
            if args.bulk:
                bulks.append(bench.first_load(bench.bulk_ingest, bench.warm_corpus, corpus))
            ingests.append(bench.first_load(bench.ingest, bench.warm_corpus, corpus, warm=bench.warm_load(corpus)))
            load, ingest = loads[-1], ingests[-1]
            log(
                f"pair {pair}: LOAD CSV {load['seconds']} s (load {load['load']}), ingest {ingest['seconds']} s "
                f"(load {ingest['load']}, peak RSS {ingest['peak_rss_mb']} MB), {ingest['items']:,} items: "
                f"{load['seconds'] / ingest['seconds']:.2f}x"
            )
            if args.bulk:
                bulk = bulks[-1]
                log(
                    f"  ingest --bulk {bulk['seconds']} s (load {bulk['load']}, peak RSS {bulk['peak_rss_mb']} MB, "
                    f"{bulk['items']:,} items): {load['seconds'] / bulk['seconds']:.2f}x"
                )
            log(f"  server CPU: LOAD CSV {cpu_line(load['server_cpu'])}")
            log(f"  server CPU: ingest {cpu_line(ingest['server_cpu'])}; client CPU {ingest['client_cpu']} s")
            if args.bulk:
                log(f"  server CPU: ingest --bulk {cpu_line(bulk['server_cpu'])}; client CPU {bulk['client_cpu']} s")
    finally:
        bench.instance.stop()
    load_median = statistics.median(run["seconds"] for run in loads)
    ingest_median = statistics.median(run["seconds"] for run in ingests)
    print(f"medians: LOAD CSV {load_median:.1f} s, ingest {ingest_median:.1f} s: {load_median / ingest_median:.2f}x")
    if bulks:
        bulk_median = statistics.median(run["seconds"] for run in bulks)
        print(f"  ingest --bulk {bulk_median:.1f} s: {load_median / bulk_median:.2f}x")
    return 0


def cpu_line(cpu: dict) -> str:
    """The server's CPU seconds in all, then its busiest thread groups, then how long those
    that waited most were ready to run but had no core, then the machine's busy cores."""
    busiest = ", ".join(f"{name} {seconds}" for name, seconds in list(cpu["threads"].items())[:4])
    waited = ", ".join(f"{name} {seconds}" for name, seconds in list(cpu["waited"].items())[:3])
    busy = f"{cpu['machine_busy_cores']} of {os.cpu_count()} cores"
    return f"{cpu['seconds']} s ({busiest}); waited for a core: {waited}; the machine busy: {busy}"


if __name__ == "__main__":
    sys.exit(main())
