"""What storing change sets costs the periodic job (issue 18).

    .venv/bin/python bench/changes.py [--papers 50000] [--fraction 0.01] [--repeats 3] [--reuse]

Builds a synthetic corpus (`bench/synth.py`, pages = papers / 100), ingests it into a Neo4j of
its own (a home under --work, free ports), then measures `sync` of a version of the corpus in
which a fraction of the documents changed (half of them edited: a citation line dropped, or a
sentence added where there is none; half deleted), with change sets and without. Each timed
sync starts from the same graph: after it, the original files are put back and synced (not
timed), and the two modes alternate. Prints the medians, the overhead and the size of the
stored change set. With --reuse, a graph this script ingested before under --work (the same
corpus, put back as it was by the script's last untimed sync) is kept, and the first ingest,
which takes most of the time at 50k, is skipped. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from paperkg.db import connect
from paperkg.library import library
from paperkg.run.ingest import ingest_paths, sync_directory
from paperkg.server import Instance

from synth import generate, revised

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import NEO4J_ENV, bench_statements, free_port, loadavg, log


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", type=int, default=50_000)
    parser.add_argument("--fraction", type=float, default=0.01, help="of the documents changed by the sync")
    parser.add_argument("--repeats", type=int, default=3, help="timed syncs per mode (the median counts)")
    parser.add_argument("--work", default="/tmp/paperkg-changes-bench")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--heap", default="2g")
    parser.add_argument("--pagecache", default="2g")
    parser.add_argument("--out", help="also write the figures to this JSON file")
    parser.add_argument(
        "--reuse", action="store_true", help="keep the graph a previous run ingested from this corpus (see above)"
    )
    args = parser.parse_args()
    for name in NEO4J_ENV:
        os.environ.pop(name, None)
    work = Path(args.work)
    corpus = work / f"corpus-{args.papers}"
    if not (corpus / ".complete").exists():
        shutil.rmtree(corpus, ignore_errors=True)
        log(f"generating {args.papers:,} papers")
        generate(corpus, papers=args.papers, pages=max(1, args.papers // 100), seed=args.seed)
        (corpus / ".complete").write_text("")
    live = work / "live"
    shutil.rmtree(live, ignore_errors=True)
    shutil.copytree(corpus, live, ignore=shutil.ignore_patterns(".*"))
    files = sorted(live.iterdir())
    chosen = random.Random(args.seed).sample(files, max(2, round(len(files) * args.fraction)))
    edited, deleted = chosen[: len(chosen) // 2], chosen[len(chosen) // 2 :]
    versions = {path: revised(path.read_text(encoding="utf-8")) for path in edited}

    instance = Instance(work / "home")
    # Written once the first ingest is done; a run that stops half-way leaves a graph that is
    # not the corpus, and removes it when it starts.
    ingested = instance.home / f".ingested-{corpus.name}-seed{args.seed}"
    reuse = args.reuse and ingested.exists()
    if not reuse:
        ingested.unlink(missing_ok=True)
        shutil.rmtree(instance.home / "data", ignore_errors=True)
    instance.start(bolt_port=free_port(), http_port=free_port(), heap=args.heap, pagecache=args.pagecache)
    (stored_size,) = bench_statements("stored_size")
    figures: dict[str, Any] = {
        "papers": args.papers,
        "documents": len(files),
        "changed": len(chosen),
        "edited": len(edited),
        "deleted": len(deleted),
    }
    try:
        with connect(home=str(instance.home)) as kb:
            if reuse:
                figures["first_ingest_seconds"] = None
                log(f"reusing the graph of {corpus.name} in {instance.home}")
            else:
                kb.reset()
                started = time.perf_counter()
                ingest_paths(kb, [live], record_changes=False)
                figures["first_ingest_seconds"] = round(time.perf_counter() - started, 2)
                log(f"first ingest (no change sets): {figures['first_ingest_seconds']} s")
            ingested.unlink(missing_ok=True)
            sync_directory(kb, live, record_changes=False)  # settles the server after the load
            times: dict[str, list[float]] = {"without": [], "with": []}
            loads: list[float] = []
            sizes = []
            for repeat in range(args.repeats):
                for mode in ("without", "with") if repeat % 2 == 0 else ("with", "without"):
                    for path, text in versions.items():
                        path.write_text(text, encoding="utf-8")
                    originals = {path: (corpus / path.name).read_bytes() for path in deleted}
                    for path in deleted:
                        path.unlink()
                    loads.append(loadavg())
                    started = time.perf_counter()
                    report = sync_directory(kb, live, record_changes=mode == "with")
                    seconds = time.perf_counter() - started
                    times[mode].append(seconds)
                    totals = report.totals
                    log(f"sync {mode} change sets: {seconds:.2f} s ({totals}, load {loads[-1]})")
                    if mode == "with":
                        (size,) = kb.cypher(stored_size, run_id=report.run_id)
                        size["net_changes"] = len(library().run(kb, "changes_since", run=report.run_id, limit=2**62))
                        sizes.append(size)
                        log(f"stored: {size}")
                    for path in edited:
                        shutil.copyfile(corpus / path.name, path)
                    for path, data in originals.items():
                        path.write_bytes(data)
                    sync_directory(kb, live, record_changes=False)
            ingested.write_text("")
            without, with_ = statistics.median(times["without"]), statistics.median(times["with"])
            figures.update(
                {
                    "sync_seconds_without": round(without, 2),
                    "sync_seconds_with": round(with_, 2),
                    "overhead_percent": round(100 * (with_ - without) / without, 1),
                    "runs_without": [round(t, 2) for t in times["without"]],
                    "runs_with": [round(t, 2) for t in times["with"]],
                    "stored": sizes[-1],
                    "load": loads,
                }
            )
    finally:
        instance.stop()
    print(
        f"{args.papers:,} papers, {len(files):,} documents; the sync changes {len(chosen)} "
        f"({len(edited)} edited, {len(deleted)} deleted)"
    )
    if figures["first_ingest_seconds"] is not None:
        print(f"first ingest without change sets: {figures['first_ingest_seconds']} s")
    print(f"sync without change sets: {figures['sync_seconds_without']} s (runs {figures['runs_without']})")
    print(f"sync with change sets:    {figures['sync_seconds_with']} s (runs {figures['runs_with']})")
    print(f"overhead: {figures['overhead_percent']} %")
    stored = figures["stored"]
    print(
        f"stored change set: {stored['change_sets']} ChangeSet nodes, {stored['entries']} entries "
        f"({stored['net_changes']} net), {stored['characters']:,} characters"
    )
    print(f"load average during the timed syncs: {figures['load']}")
    if args.out:
        Path(args.out).write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
