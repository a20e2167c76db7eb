"""`paperkg analyze` on a benchmark graph and the latency of the queries that read what it writes.

    .venv/bin/python bench/analysis_queries.py --home /tmp/paperkg-bench/home [--sample 50]

Runs `paperkg analyze` as a subprocess against the managed Neo4j in --home (e.g. the benchmark's
50k corpus, loaded by bench/run.py or `paperkg export --admin-import ... --load`) and prints its
wall time and peak resident memory, then p50/p95 of each new query over a sample of papers
(pages for the claim queries; `min_share` 0.2 so weak works exist), and of the corpus-wide ones
repeated. Not part of the test suite; figures go to docs/performance.md.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import loadavg, measured, sample_sets, timed

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
        seconds, rss, _ = measured([sys.executable, "-m", "paperkg.cli", "analyze"], Path(args.home))
        out["analyze"] = {"seconds": round(seconds, 2), "peak_rss_mb": rss}
        print(f"paperkg analyze: {seconds:.1f} s, peak RSS {rss:.0f} MB (load {out['load']})")
    rng = random.Random(args.seed)
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
            figures = timed(kb, name, [{"paper": paper, **params} for paper in samples[sample]])
            out[label] = figures
            print(
                f"{label:<28} per paper ({sample}s): p50 {figures['p50_ms']} ms, p95 {figures['p95_ms']} ms, "
                f"max {figures['max_ms']} ms"
            )
        for label, params in CORPUS_WIDE.items():
            figures = timed(kb, label.split()[0], [params] * REPEATS)
            out[label] = figures
            print(f"{label:<28} corpus-wide: p50 {figures['p50_ms']} ms, p95 {figures['p95_ms']} ms")
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
