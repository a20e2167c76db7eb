"""The fuzz benchmark of issue 21: whole ingestion runs of mutants among good documents.

    .venv/bin/python bench/fuzz.py [--mutants 2000] [--batches 20] [--good 4] [--seed 0]

Mutants are bench/mutate.py's cases of the seed documents, a small synthetic corpus and the
examples; good documents come from a synthetic corpus of their own. Each batch is one
directory (its mutants and good documents in a shuffled order) ingested by one `paperkg ingest
--json` run, a subprocess with a time limit, into a Neo4j of this script's own (a temporary
home, free ports) whose graph grows from batch to batch. It prints, per batch and in total:

* crashes: a run that exits other than 0 or 1, prints a traceback, or writes no JSON report;
* hangs: a run still going at the time limit (then killed);
* good documents lost: a good document not reported new, or not in the graph after its run.

Exit status 1 when any of the three is not zero. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from paperkg.db import connect
from paperkg.server import Instance

from mutate import DEFAULT_SEEDS, EXAMPLES, fuzz_corpus, make_case, mixed_batch
from synth import generate

DOCUMENTS_UNDER = "MATCH (d:Document) WHERE d.path STARTS WITH $prefix RETURN d.path AS path"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mutants", type=int, default=2000, help="mutants in all (default 2000)")
    parser.add_argument("--batches", type=int, default=20, help="runs to spread them over (default 20)")
    parser.add_argument("--good", type=int, default=4, help="good documents per batch (default 4)")
    parser.add_argument("--seed", type=int, default=0, help="mutation seed (the same seed, the same mutants)")
    parser.add_argument(
        "--seeds-dir", type=Path, default=DEFAULT_SEEDS, help=f"seed documents (default {DEFAULT_SEEDS})"
    )
    parser.add_argument("--time-limit", type=float, default=600, help="seconds before a run counts as hung")
    parser.add_argument("--keep", action="store_true", help="keep the work directory (its path is printed)")
    args = parser.parse_args()
    if not args.seeds_dir.is_dir():
        parser.error(f"seed documents not found at {args.seeds_dir} (use --seeds-dir)")
    # A TERM (a scheduler's time limit) still stops the server this script started.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))

    work = Path(tempfile.mkdtemp(prefix="paperkg-fuzz-bench-")).resolve()
    instance = Instance(work / "home")
    try:
        corpus = fuzz_corpus(args.seed, args.seeds_dir, [EXAMPLES] if EXAMPLES.is_dir() else [], work / "sources")
        good_corpus = work / "good"
        generate(
            good_corpus,
            papers=args.good * args.batches * 3 // 4 + 1,
            pages=args.good * args.batches // 4 + 1,
            seed=args.seed + 1,
        )
        good_documents = sorted(good_corpus.iterdir())
        print(
            f"{args.mutants:,} mutants of {len(corpus)} documents, {args.batches} batches with {args.good} good "
            f"documents each; Neo4j in {instance.home}",
            flush=True,
        )
        instance.start(bolt_port=free_port(), http_port=free_port(), heap="512m", pagecache="128m")
        totals = run_batches(instance, args, corpus, good_documents, work)
    finally:
        instance.stop()
        if args.keep:
            print(f"work directory kept: {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    print(
        f"total: {totals['mutants']:,} mutants, {totals['good']} good documents in {args.batches} runs "
        f"({totals['seconds']:.0f} s): {totals['crashes']} crashes, {totals['hangs']} hangs, "
        f"{totals['lost']} good documents lost; {totals['rejected']:,} documents rejected, "
        f"{totals['landed']:,} landed"
    )
    return 1 if totals["crashes"] or totals["hangs"] or totals["lost"] else 0


def run_batches(
    instance: Instance,
    args: argparse.Namespace,
    corpus: list[tuple[str, bytes]],
    good_documents: list[Path],
    work: Path,
) -> dict[str, float]:
    totals = dict.fromkeys(("mutants", "good", "crashes", "hangs", "lost", "rejected", "landed", "seconds"), 0)
    env = {**os.environ, "PAPERKG_HOME": str(instance.home)}
    for name in ("NEO4J_URI", "NEO4J_USERNAME", "NEO4J_PASSWORD", "NEO4J_DATABASE"):
        env.pop(name, None)
    per_batch = args.mutants // args.batches
    with connect(home=str(instance.home)) as kb:
        for batch in range(args.batches):
            numbers = range(batch * per_batch, args.mutants if batch == args.batches - 1 else (batch + 1) * per_batch)
            cases = [make_case(args.seed, number, corpus) for number in numbers]
            good = mixed_batch(
                work / f"batch{batch:02d}",
                args.seed + batch,
                cases,
                good_documents[batch * args.good : (batch + 1) * args.good],
            )
            started = time.monotonic()
            outcome = ingest(work / f"batch{batch:02d}", env, args.time_limit)
            seconds = time.monotonic() - started
            statuses = {d["path"]: d["status"] for d in outcome.get("documents", [])}
            in_graph = {row["path"] for row in kb.cypher(DOCUMENTS_UNDER, prefix=f"{work / f'batch{batch:02d}'}/")}
            lost = [path for path in good if statuses.get(str(path)) != "new" or str(path) not in in_graph]
            crashed, hung = outcome["crash"] is not None, outcome["hung"]
            totals["mutants"] += len(cases)
            totals["good"] += len(good)
            totals["crashes"] += crashed
            totals["hangs"] += hung
            totals["lost"] += len(lost)
            totals["rejected"] += sum(status == "rejected" for status in statuses.values())
            totals["landed"] += len(in_graph)
            totals["seconds"] += seconds
            note = f"; CRASH: {outcome['crash']}" if crashed else "; HUNG" if hung else ""
            print(
                f"batch {batch + 1:2}/{args.batches}: {len(cases)} mutants + {len(good)} good, exit "
                f"{outcome['code']}, {seconds:5.1f} s, {sum(s == 'rejected' for s in statuses.values())} rejected, "
                f"{len(in_graph)} landed, {len(lost)} good lost{note}",
                flush=True,
            )
    return totals


def ingest(directory: Path, env: dict[str, str], time_limit: float) -> dict:
    """One `paperkg ingest --json` run: its exit code, report, and whether it crashed or hung."""
    command = [sys.executable, "-m", "paperkg.cli", "ingest", str(directory), "--json"]
    try:
        result = subprocess.run(command, capture_output=True, text=True, env=env, timeout=time_limit)
    except subprocess.TimeoutExpired:
        return {"code": None, "hung": True, "crash": None}
    outcome = {"code": result.returncode, "hung": False, "crash": None}
    if result.returncode not in (0, 1) or "Traceback" in result.stderr:
        outcome["crash"] = (result.stderr.strip().splitlines() or [f"exit {result.returncode}"])[-1][:200]
        return outcome
    try:
        outcome.update(json.loads(result.stdout))
    except json.JSONDecodeError:
        outcome["crash"] = "no JSON report"
    return outcome


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


if __name__ == "__main__":
    sys.exit(main())
