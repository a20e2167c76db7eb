"""`paperkg analyze` on a benchmark graph and the latency of the queries that read what it writes.

    .venv/bin/python bench/analysis_queries.py --home /tmp/paperkg-bench/home [--sample 50]

Runs `paperkg analyze` as a subprocess against the managed Neo4j in --home (e.g. the benchmark's
50k corpus, loaded by bench/run.py or `paperkg export --admin-import ... --load`) and prints its
wall time, peak resident memory and the CPU time it and the server used (on a shared machine the
wall time mostly measures the other processes; the CPU time much less), then p50/p95 of each new query over a sample of papers
(pages for the claim queries; `min_share` 0.2 so weak works exist), and of the corpus-wide ones
repeated. Not part of the test suite (docs/benchmarks.md#other-benchmarks).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import loadavg, process_cpu_seconds, sample_sets, timed

from paperkg.server import Instance

PER_PAPER = {
    "influential_ancestors": {},
    "cluster_of": {},
    "support_profile": {},
    "at_risk_claims": {"min_share": 0.2},
    "at_risk_claims depth 2": {"min_share": 0.2, "depth": 2},
    "at_risk_claims depth 3": {"min_share": 0.2, "depth": 3},
}
CORPUS_WIDE = {
    "top_papers": {},
    "top_papers 2020-2022": {"since": 2020, "until": 2022},
    "clusters": {},
    "clusters coupling": {"network": "coupling"},
    "main_path": {},
    "main_path key_route": {"kind": "key_route"},
}
REPEATS = 10


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--home", required=True, help="the managed Neo4j's home")
    parser.add_argument("--sample", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--skip-analyze", action="store_true", help="only the queries")
    args = parser.parse_args()
    for name in ("NEO4J_URI", "NEO4J_USERNAME", "NEO4J_PASSWORD", "NEO4J_DATABASE"):
        os.environ.pop(name, None)
    os.environ["PAPERKG_HOME"] = args.home
    from paperkg.db import connect

    out = {"load": loadavg()}
    if not args.skip_analyze:
        out["analyze"] = analyze(Path(args.home))
        figures = out["analyze"]
        print(
            f"paperkg analyze: {figures['seconds']:.1f} s, peak RSS {figures['peak_rss_mb']:.0f} MB, "
            f"CPU {figures['cpu_seconds']:.1f} s and the server's {figures['server_cpu_seconds']:.1f} s "
            f"(load {out['load']} before, {figures['load_after']} after)"
        )
    rng = random.Random(args.seed)
    server = Instance(args.home).pid()
    with connect(home=args.home) as kb:
        papers, pages = sample_sets(kb)
        cited = [
            r["id"]
            for r in kb.cypher("MATCH (p:Paper)<-[:REFERS_TO]-() WITH DISTINCT p RETURN p.paper_id AS id ORDER BY id")
        ]
        samples = {
            "paper": rng.sample(papers, args.sample),
            "page": rng.sample(pages, min(args.sample, len(pages))),
            "cited": rng.sample(cited, min(args.sample, len(cited))),
        }
        for label, params in PER_PAPER.items():
            name = label.split()[0]
            sample = {"at_risk_claims": "page", "support_profile": "cited"}.get(name, "paper")
            before = server_cpu(server)
            figures = timed(kb, name, [{"paper": paper, **params} for paper in samples[sample]])
            # timed() runs the first call once more, as a warm-up.
            figures["server_cpu_ms"] = round(1000 * (server_cpu(server) - before) / (figures["calls"] + 1), 1)
            out[label] = figures
            print(
                f"{label:<28} per paper ({sample}s): p50 {figures['p50_ms']} ms, p95 {figures['p95_ms']} ms, "
                f"max {figures['max_ms']} ms; server CPU {figures['server_cpu_ms']} ms a call"
            )
        for label, params in CORPUS_WIDE.items():
            figures = timed(kb, label.split()[0], [params] * REPEATS)
            out[label] = figures
            print(f"{label:<28} corpus-wide: p50 {figures['p50_ms']} ms, p95 {figures['p95_ms']} ms")
    print(json.dumps(out))
    return 0


def analyze(home: Path) -> dict[str, float]:
    """`paperkg analyze` as a subprocess: wall seconds, peak RSS, its CPU seconds (user and
    system) and the server's over the same time."""
    server = Instance(home).pid()
    before = server_cpu(server)
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "paperkg.cli", "analyze"], env={**os.environ, "PAPERKG_HOME": str(home)}
    )
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"paperkg analyze failed ({os.waitstatus_to_exitcode(status)})")
    return {
        "seconds": round(seconds, 2),
        "peak_rss_mb": round(usage.ru_maxrss / 1024, 1),
        "cpu_seconds": round(usage.ru_utime + usage.ru_stime, 2),
        "server_cpu_seconds": round(server_cpu(server) - before, 2),
        "load_after": loadavg(),
    }


def server_cpu(pid: int | None) -> float:
    """The server process's CPU seconds so far (user and system, from /proc)."""
    return 0.0 if pid is None else process_cpu_seconds(pid)


if __name__ == "__main__":
    sys.exit(main())
