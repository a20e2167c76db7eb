"""The performance benchmark of issue 6: paperkg against Neo4j's own bulk paths.

    .venv/bin/python bench/run.py [--sizes 2000,10000,50000] [--work /tmp/paperkg-bench]

For each size it builds a synthetic corpus (`bench/synth.py`, pages = papers / 100) and
measures, on a Neo4j of its own (a home under --work, free ports, never the user's or the
test suite's):

* parse throughput (MB/s, in this process);
* `paperkg ingest` into an empty database, run as a subprocess, by the path it takes on its
  own (the bulk load from paperkg.limits.BULK_MIN_DOCUMENTS documents, warmed up by the same
  path): nodes + relationships per second and its peak resident memory; then the same command on the unchanged corpus, three
  times (the median counts), and `paperkg sync` of it with 1 % of its documents changed (the
  file-hash cache, paperkg.corpus.files, is the benchmark's own and emptied before each first
  ingest, so that a first ingest reads every file as a user's first does; the re-ingests and
  the sync find what it recorded);
* `paperkg ingest --bulk` into an empty database (paperkg.load.bulk: the export below, then
  `LOAD CSV` that only creates);
* the same graph written by a straightforward `LOAD CSV` script (`load_csv_script`: MERGE on
  the constrained keys, `CALL {...} IN TRANSACTIONS`) from the rows `paperkg export
  --admin-import` writes, copied into the instance's import directory, and by a naive path
  that writes each row in a transaction of its own (bench/naive/*.cypher; a sample,
  extrapolated: the full run would take hours);
* on the largest corpus: p50/p95 latency of every library query (per-paper queries over a
  sample of papers, corpus-wide ones repeated), and the offline path: `paperkg export
  --admin-import` plus `neo4j-admin database import full` into a fresh database.

Each timed first load (paperkg's and LOAD CSV's) starts from a fresh database and runs first
on a small warm-up corpus in the same server, whose graph is then emptied, so no path is timed
on a cold JVM; the timing starts once the server is idle again (`settle`). The default 300
papers keep the series comparable with earlier runs; the JIT is still warming after them,
LOAD CSV's more than paperkg's (docs/benchmarks.md), and `--warm-up-papers` sets a larger
warm-up. The two alternate; up to 10,000 papers each runs three times and the median counts,
the largest corpora (minutes per load) once. Prints a table and writes the figures to
bench/results.json. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import metadata
from pathlib import Path
from typing import Any, NamedTuple

from paperkg.corpus import files
from paperkg.corpus.discovery import discover
from paperkg.cypher_files import read_cypher_file, statements
from paperkg.db import KnowledgeBase, connect
from paperkg.history import runs
from paperkg.limits import BULK_MIN_DOCUMENTS, DOCS_PER_TRANSACTION
from paperkg.load.admin_import import (
    ARRAY_DELIMITER,
    NODES,
    RELATIONSHIPS,
    node_file,
)
from paperkg.load.bulk import checked_script
from paperkg.load.schema import apply_schema, store_missing_claim_status, store_missing_title_lower
from paperkg.parse import ParseError, parse_bytes
from paperkg.run.answers import drop, precompute
from paperkg.run.lock import complete_unfinished_load
from paperkg.server import Instance

from goals import goal_lines, goals
from synth import generate, revised

ROOT = Path(__file__).resolve().parent
NEO4J_ENV = ("NEO4J_URI", "NEO4J_USERNAME", "NEO4J_PASSWORD", "NEO4J_DATABASE")
QUERY_REPEATS = 10  # corpus-wide queries, after one warm-up run
# search_claims and search_works over fixed searches of bench/synth.py's claims, from a word most
# claims use to a rare one, plus a phrase, a prefix and a hyphenated word; each SEARCH_REPEATS times.
SEARCH_WORDS = ("trained", "benchmarks", "superposition", "chess", '"sparse autoencoders"', "memori*", "low-rank")
SEARCH_REPEATS = 10
REINGEST_RUNS = 3
SYNC_FRACTION = 0.01  # of the documents a timed sync finds changed (issue 20)
FIRST_LOAD_RUNS = 3  # for corpora up to REPEATED_UP_TO papers
REPEATED_UP_TO = 10_000
WARM_UP_PAPERS = 300
RSS_SAMPLE_SECONDS = 0.2
# Before a timed first load, the server is left until it is idle: below SETTLED_CPU of a core
# over SETTLE_INTERVAL seconds (at most SETTLE_LIMIT seconds in all).
SETTLED_CPU = 0.05
SETTLE_INTERVAL = 0.5
SETTLE_LIMIT = 30.0
THREAD_SAMPLE_SECONDS = 0.2
# The bulk load's commit clause where it takes two transactions at once (cypher/bulk_load.cypher).
CONCURRENT_BATCHES = re.compile(r"IN \d+ CONCURRENT TRANSACTIONS OF \d+ ROWS")
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


# Where a run keeps its files and writes its figures: not how they are measured.
PLACE_OPTIONS = ("--work", "--out")


def reproducing_command(argv: list[str]) -> str:
    """The command that measures the same figures, as bench/results.json records it: the script
    by its path in the repository, then the options, without those naming scratch places."""
    words = ["python", "bench/run.py"]
    options = iter(argv[1:])
    for word in options:
        if word in PLACE_OPTIONS:
            next(options, None)
        elif not word.startswith(tuple(f"{option}=" for option in PLACE_OPTIONS)):
            words.append(word)
    return " ".join(words)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="2000,10000,50000", help="papers per corpus, comma-separated")
    parser.add_argument("--work", default="/tmp/paperkg-bench", help="corpora, the Neo4j home and CSV files")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--heap", default="2g", help="the benchmark server's JVM heap")
    parser.add_argument("--pagecache", default="2g", help="the benchmark server's page cache")
    parser.add_argument("--batch", type=int, default=DOCS_PER_TRANSACTION, help="paperkg ingest --batch")
    parser.add_argument(
        "--warm-up-papers",
        type=int,
        default=WARM_UP_PAPERS,
        help="papers of the corpus each first load runs on before it is timed, in the same server",
    )
    parser.add_argument("--naive-rows", type=int, default=3000, help="rows in the one-transaction-per-row sample")
    parser.add_argument("--sample", type=int, default=50, help="papers per per-paper library query")
    parser.add_argument("--out", default=str(ROOT / "results.json"))
    only = parser.add_mutually_exclusive_group()
    only.add_argument(
        "--offline-only",
        action="store_true",
        help="only the offline path (export --admin-import, neo4j-admin import, schema) and the "
        "library queries on the graph it leaves, at each size",
    )
    only.add_argument(
        "--ingest-only", action="store_true", help="only the first `paperkg ingest` (time, peak RSS) at each size"
    )
    args = parser.parse_args()
    for name in NEO4J_ENV:
        os.environ.pop(name, None)
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    bench = Bench(Instance(work / "home"), args, work)
    sizes = [int(size) for size in args.sizes.split(",")]
    run: dict[str, Any] = {
        "machine": machine(),
        "command": reproducing_command(sys.argv),
        "settings": {
            "heap": args.heap,
            "pagecache": args.pagecache,
            "batch": args.batch,
            "seed": args.seed,
            "warm_up_papers": args.warm_up_papers,
        },
        "sizes": [],
    }
    # A partial run's figures join those of the file's last full run (under partial_runs, by
    # mode and sizes); a full run keeps the partial runs the file holds.
    partial = "offline" if args.offline_only else "ingest" if args.ingest_only else None
    earlier = previous_results(Path(args.out))
    if partial:
        results = earlier or {"sizes": []}
        results.setdefault("partial_runs", {})[f"{partial}-{args.sizes}"] = run
    else:
        results = {**run, "partial_runs": earlier.get("partial_runs", {})}
    try:
        for size in sizes:
            if partial == "offline":
                run["sizes"].append(bench.offline_only(size, work))
            elif partial == "ingest":
                run["sizes"].append(bench.ingest_only(size, work))
            else:
                run["sizes"].append(bench.size(size, work, largest=size == max(sizes)))
            results["goals"] = [goal.to_dict() for goal in goals(results)]
            Path(args.out).write_text(json.dumps(results, indent=2) + "\n")
    finally:
        bench.instance.stop()
    print(partial_table(run) if partial else table(results))
    print()
    print("\n".join(goal_lines(results, _columns)))
    print(f"\nfigures written to {args.out}")
    return 0


def previous_results(path: Path) -> dict[str, Any]:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return {}


class Bench:
    def __init__(self, instance: Instance, args: argparse.Namespace, work: Path):
        self.instance, self.args = instance, args
        # The benchmark's servers and commands keep their cache under its home, not the user's.
        os.environ["XDG_CACHE_HOME"] = str(cache_home(instance.home))
        # A small corpus of another seed: each timed path first runs on it in the same server,
        # then the graph is emptied, so neither path is timed on a cold JVM (a fresh server
        # runs its first ingest of 2k papers about twice as slowly as its third).
        self.warm_corpus = warm_up_corpus(work, args.warm_up_papers, args.seed)
        self.warm_export = instance.home / "import" / self.warm_corpus.name

    def corpus(self, papers: int, work: Path) -> tuple[Path, dict[str, Any]]:
        """The synthetic corpus of `papers` (generated once, kept under --work) and its row."""
        return synthetic_corpus(work, papers, self.args.seed), {"papers": papers, "pages": corpus_pages(papers)}

    def offline_only(self, papers: int, work: Path) -> dict[str, Any]:
        """The offline path alone, then the library queries on the graph it leaves."""
        corpus, row = self.corpus(papers, work)
        row["corpus_mb"] = round(sum(file.stat().st_size for file in discover([corpus]).files) / 1e6, 1)
        log(f"== offline path, {papers:,} papers ({row['corpus_mb']:,} MB): {corpus}")
        export_dir = self.instance.home / "import" / f"corpus-{papers}"
        row["export"] = self.export(corpus, export_dir)
        log(f"export: {row['export']}")
        row["admin_import"] = self.admin_import(export_dir, row["export"])
        log(f"admin import: {row['admin_import']}")
        shutil.rmtree(export_dir)
        row["items"] = row["admin_import"]["items"]
        row["queries"] = self.queries()
        return row

    def ingest_only(self, papers: int, work: Path) -> dict[str, Any]:
        """The first `paperkg ingest` alone, into a fresh database after the warm-up corpus."""
        corpus, row = self.corpus(papers, work)
        log(f"== ingest only, {papers:,} papers: {corpus}")
        row["ingest"] = self.first_load(self.ingest, self.warm_corpus, corpus, warm=self.warm_load(corpus))
        with self.kb() as kb:
            row["ingest"]["path"] = runs(kb, limit=1)[0]["loader"]  # the path the run took on its own
        row["items"] = row["ingest"]["items"]
        log(f"ingest: {row['ingest']}")
        return row

    def size(self, papers: int, work: Path, largest: bool) -> dict[str, Any]:
        corpus, row = self.corpus(papers, work)
        pages = row["pages"]
        log(f"== {papers:,} papers, {pages} pages: {corpus}")
        row["parse"] = parse_throughput(corpus)
        log(f"parse: {row['parse']}")

        export_dir = self.instance.home / "import" / f"corpus-{papers}"
        row["export"] = self.export(corpus, export_dir)
        log(f"export: {row['export']}")
        if not self.warm_export.exists():
            self.export(self.warm_corpus, self.warm_export)
        # The two first loads alternate, LOAD CSV then paperkg, so both meet the machine in the
        # same state: this VM's speed drifts over minutes (in one run, the pure-Python parse went
        # from 16 MB/s at 2k papers to 10 MB/s at 50k).
        # The batch ingest last: the re-ingests and the sync below start from its graph.
        loads, bulks, ingests = [], [], []
        for _ in range(FIRST_LOAD_RUNS if papers <= REPEATED_UP_TO else 1):
            loads.append(self.first_load(self.load_csv, self.warm_export, export_dir))
            log(f"LOAD CSV: {loads[-1]}")
            bulks.append(self.first_load(self.bulk_ingest, self.warm_corpus, corpus))
            log(f"ingest --bulk: {bulks[-1]}")
            ingests.append(self.first_load(self.ingest, self.warm_corpus, corpus, warm=self.warm_load(corpus)))
            log(f"ingest: {ingests[-1]}")
        row["load_csv"], row["bulk"], row["ingest"] = median_run(loads), median_run(bulks), median_run(ingests)
        with self.kb() as kb:
            row["ingest"]["path"] = runs(kb, limit=1)[0]["loader"]  # the path the ingests took on their own
        row["items"] = row["ingest"]["items"]
        # The scheduled job's steady state, on the graph of the last load: the median of three
        # runs (the first, straight after the load, also meets the server still writing back
        # what the load changed).
        again = median_run([self.ingest(corpus) for _ in range(REINGEST_RUNS)])
        row["reingest"] = {**again, "fraction": round(again["seconds"] / row["ingest"]["seconds"], 4)}
        log(f"re-ingest: {row['reingest']}")
        if largest:
            row["queries"] = self.queries()
        row["sync"] = self.sync_changed(corpus, row["ingest"]["seconds"])
        log(f"sync: {row['sync']}")
        self.fresh_database()
        row["naive"] = self.naive(export_dir, row["items"])
        log(f"naive: {row['naive']}")
        if largest:
            row["admin_import"] = self.admin_import(export_dir, row["export"])
            log(f"admin import: {row['admin_import']}")
        shutil.rmtree(export_dir)
        row["ratios"] = {
            "ingest_vs_load_csv": round(row["ingest"]["items_per_s"] / row["load_csv"]["items_per_s"], 3),
            "bulk_vs_load_csv": round(row["bulk"]["items_per_s"] / row["load_csv"]["items_per_s"], 3),
            "ingest_vs_naive": round(row["ingest"]["items_per_s"] / row["naive"]["items_per_s"], 1),
        }
        return row

    # -- the server ------------------------------------------------------------------------

    def warm_load(self, corpus: Path):
        """The load that warms the server for `paperkg ingest` of `corpus`: the path that ingest
        takes on its own for it (the warm-up corpus is below the bulk load's threshold), and the
        bulk load before an offline import, whose restart leaves a cold server whatever warmed it."""
        documents = len(discover([corpus]).files)
        return self.bulk_ingest if documents >= BULK_MIN_DOCUMENTS else self.ingest

    def first_load(self, load, warm_up: Path, source: Path, warm=None) -> dict[str, Any]:
        """`load(source)` into a fresh database, after `warm(warm_up)` (default: `load`) in the same server."""
        self.fresh_database()
        (warm or load)(warm_up)
        with self.kb() as kb:
            kb.reset()
        # A first ingest reads every file; the server's classpath and extension stay cached.
        for path in (cache_home(self.instance.home) / "paperkg").glob(f"{files.FILE_NAME}*"):
            path.unlink()
        pid, settled = idle_server(self.instance)
        with ThreadCpu(pid, self.instance) as server:
            run = load(source)
        return {**run, "server_cpu": server.seconds(), "settled_after": settled}

    def fresh_database(self) -> None:
        """Stop the server, remove its databases and start it again: an empty store."""
        self.instance.stop()
        shutil.rmtree(self.instance.home / "data", ignore_errors=True)
        self.start()

    def start(self) -> None:
        self.instance.start(
            bolt_port=free_port(), http_port=free_port(), heap=self.args.heap, pagecache=self.args.pagecache
        )

    def kb(self) -> KnowledgeBase:
        return connect(home=str(self.instance.home))

    def items(self) -> dict[str, Any]:
        with self.kb() as kb:
            stats = kb.stats()
        nodes = {label: count for label, count in stats["nodes"].items() if label in NODES}
        return {
            "nodes": nodes,
            "relationships": stats["relationships"],
            "total": sum(nodes.values()) + sum(stats["relationships"].values()),
        }

    # -- paperkg ---------------------------------------------------------------------------

    def ingest(self, corpus: Path) -> dict[str, Any]:
        return self._ingest(corpus, "--batch", str(self.args.batch))

    def bulk_ingest(self, corpus: Path) -> dict[str, Any]:
        """`paperkg ingest --bulk` (paperkg.load.bulk): only into an empty graph."""
        return self._ingest(corpus, "--bulk")

    def _ingest(self, corpus: Path, *options: str) -> dict[str, Any]:
        load = loadavg()
        run = measured(
            [sys.executable, "-m", "paperkg.cli", "ingest", str(corpus), "--quiet", *options], self.instance.home
        )
        counted = self.items()
        return {
            "seconds": round(run.seconds, 2),
            "rejected": run.rejected,
            "items": counted["total"],
            "counts": counted,
            "items_per_s": round(counted["total"] / run.seconds),
            "peak_rss_mb": run.peak_rss_mb,
            "client_cpu": run.cpu_seconds,
            "load": load,
        }

    def sync_changed(self, corpus: Path, first_ingest_seconds: float) -> dict[str, Any]:
        """`paperkg sync` of the corpus with SYNC_FRACTION of its documents changed, half revised
        (synth.revised) and half deleted, on the graph of the corpus as it is; the
        files are put back afterwards (the graph is not: a fresh database follows)."""
        with changed_files(corpus, self.args.seed) as (edited, deleted):
            load = loadavg()
            run = measured([sys.executable, "-m", "paperkg.cli", "sync", str(corpus), "--quiet"], self.instance.home)
        return {
            "seconds": round(run.seconds, 2),
            "edited": edited,
            "deleted": deleted,
            "rejected": run.rejected,
            "peak_rss_mb": run.peak_rss_mb,
            "fraction": round(run.seconds / first_ingest_seconds, 4),
            "load": load,
        }

    def export(self, corpus: Path, directory: Path) -> dict[str, Any]:
        shutil.rmtree(directory, ignore_errors=True)
        load = loadavg()
        run = measured(
            [sys.executable, "-m", "paperkg.cli", "export", "--admin-import", str(directory), str(corpus)],
            self.instance.home,
        )
        size = sum(file.stat().st_size for file in directory.glob("*.csv"))
        return {
            "seconds": round(run.seconds, 2),
            "rejected": run.rejected,
            "peak_rss_mb": run.peak_rss_mb,  # its worker processes included
            "largest_process_rss_mb": run.largest_rss_mb,
            "peak_pss_mb": run.peak_pss_mb,
            "csv_mb": round(size / 1e6, 1),
            "load": load,
        }

    def queries(self) -> dict[str, Any]:
        from paperkg.library import library

        rng = random.Random(self.args.seed)
        with self.kb() as kb:
            # As a user of a large graph would after a start: `paperkg warm`, so the timed calls
            # do not wait for pages that a server in service holds in its page cache.
            warmed = kb.warm()
            warm = {"seconds": round(sum(part["seconds"] for part in warmed), 2)}
            warm["parts"] = {part["part"]: round(part["seconds"], 2) for part in warmed}
            log(f"paperkg warm: {warm}")
            papers, pages = sample_sets(kb)
            titles = [
                r["t"]
                for r in kb.cypher(
                    "MATCH (p:Paper) WHERE p.title IS NOT NULL RETURN p.title AS t ORDER BY p.paper_id LIMIT 5000"
                )
            ]
            papers = rng.sample(papers, min(self.args.sample, len(papers)))
            pages = rng.sample(pages, min(self.args.sample, len(pages)))
            words = [max(re.findall(r"\w+", title), key=len) for title in rng.sample(titles, self.args.sample)]
            out: dict[str, Any] = {"load": loadavg(), "warm": warm, "per_paper": {}, "corpus_wide": {}}
            out["search"] = self.search(kb)
            for query in library():
                if any(p.type == "search" for p in query.params):
                    continue  # timed by self.search
                params = {p.name: p for p in query.params}
                about_claims = "Claim" in query.text
                sample = pages if about_claims else papers
                calls: list[dict[str, Any]] = []
                if "paper" in params:
                    calls = [{"paper": paper} for paper in sample]
                    if "other" in params:
                        calls = [{"paper": a, "other": b} for a, b in zip(sample, sample[1:] + sample[:1])]
                elif "text" in params:
                    calls = [{"text": word} for word in words]
                if calls:
                    out["per_paper"][query.name] = timed(kb, query.name, calls)
                    log(f"query {query.name} per paper: {out['per_paper'][query.name]}")
                if all(not p.required for p in query.params):
                    out["corpus_wide"][query.name] = timed(kb, query.name, [{}] * QUERY_REPEATS)
                    log(f"query {query.name} corpus-wide: {out['corpus_wide'][query.name]}")
            # As a user of a large graph would: `paperkg precompute`, then the same calls read
            # the stored answers; what the queries take themselves stays under corpus_wide_live.
            started = time.perf_counter()
            computed = precompute(kb)
            out["precompute"] = {
                "seconds": round(time.perf_counter() - started, 2),
                "answers": {answer.query: round(answer.seconds, 2) for answer in computed},
            }
            log(f"paperkg precompute: {out['precompute']}")
            out["corpus_wide_live"] = {}
            for answer in computed:
                if kb.query(answer.query).precomputed_at is None:
                    raise RuntimeError(f"{answer.query}: its precomputed answer is not read")
                out["corpus_wide_live"][answer.query] = out["corpus_wide"][answer.query]
                out["corpus_wide"][answer.query] = timed(kb, answer.query, [{}] * QUERY_REPEATS)
                log(f"query {answer.query} corpus-wide, precomputed: {out['corpus_wide'][answer.query]}")
            # The sync timed next measures the sync alone, as it always has. One of a graph with
            # stored answers also computes them again: about `precompute`'s time above.
            drop(kb)
        return out

    def search(self, kb: KnowledgeBase) -> dict[str, Any]:
        """search_claims and search_works over SEARCH_WORDS (the claims each word finds, the
        latency over all of them, search_claims also per word and filtered by status), then the
        full-text indexes dropped and built again by the schema: the build's time, their size."""
        from paperkg.search import search_text

        (hits,) = bench_statements("search_hits")
        out: dict[str, Any] = {
            "words": {word: kb.cypher(hits, text=search_text(word))[0]["hits"] for word in SEARCH_WORDS}
        }
        log(f"search words, claims found: {out['words']}")
        calls = [{"text": word} for word in SEARCH_WORDS] * SEARCH_REPEATS
        out["search_claims"] = timed(kb, "search_claims", calls)
        out["search_claims_unsupported"] = timed(kb, "search_claims", [{**c, "status": "unsupported"} for c in calls])
        out["search_works"] = timed(kb, "search_works", calls)
        out["per_word_p50_ms"] = {
            word: timed(kb, "search_claims", [{"text": word}] * SEARCH_REPEATS)["p50_ms"] for word in SEARCH_WORDS
        }
        log(f"search: {out}")
        for statement in bench_statements("drop_search_indexes"):
            kb.execute(statement)
        started = time.perf_counter()
        apply_schema(kb)  # creates the indexes dropped, and waits until they are online
        out["index_build_seconds"] = round(time.perf_counter() - started, 2)
        store = self.instance.home / "data" / "databases" / "neo4j" / "schema" / "index" / "fulltext-1.0"
        out["index_mb"] = {
            row["name"]: round(
                sum(f.stat().st_size for f in (store / str(row["id"])).rglob("*") if f.is_file()) / 1e6, 2
            )
            for row in kb.cypher(bench_statements("search_indexes")[0])
        }
        log(f"full-text indexes built in {out['index_build_seconds']} s: {out['index_mb']} MB")
        return out

    # -- Neo4j's paths -----------------------------------------------------------------------

    def load_csv(self, directory: Path) -> dict[str, Any]:
        """The exported rows through `load_csv_script`, a LOAD CSV script of the kind a user
        would write by hand (a copy is left next to the export's directory)."""
        script = ";\n\n".join(load_csv_script(directory)) + ";\n"
        (directory.parent / f"{directory.name}.load_csv.cypher").write_text(script, encoding="utf-8")
        with self.kb() as kb:
            apply_schema(kb)
            load = loadavg()
            started = time.perf_counter()
            run_load_csv(kb, directory)
            seconds = time.perf_counter() - started
        counted = self.items()
        return {
            "seconds": round(seconds, 2),
            "items": counted["total"],
            "counts": counted,
            "items_per_s": round(counted["total"] / seconds),
            "load": load,
        }

    def naive(self, directory: Path, total_items: int) -> dict[str, Any]:
        """One transaction per row (one node or one relationship), on an evenly spread sample of
        the rows, extrapolated. The endpoints of the sampled relationships are written first,
        untimed, so each timed transaction writes exactly one item, as in a full run."""
        cypher = named_statements("naive")
        files = [node_file(label) for label in NODES] + list(RELATIONSHIPS)
        stride = max(1, sum(count_rows(directory / f"{name}.csv") for name in files) // self.args.naive_rows)
        sample: list[tuple[str, dict[str, Any]]] = []
        endpoints: dict[str, set[str]] = {}  # label → keys of the sampled relationships' nodes
        for name in files:
            for number, record in enumerate(read_csv(directory / f"{name}.csv")):
                if number % stride:
                    continue
                sample.append((cypher[name], naive_parameters(name, record)))
                if name in RELATIONSHIPS:
                    _, start, end, _ = RELATIONSHIPS[name]
                    endpoints.setdefault(start, set()).add(record[f":START_ID({start})"])
                    endpoints.setdefault(end, set()).add(record[f":END_ID({end})"])
        created = 0
        with self.kb() as kb:
            apply_schema(kb)
            for label, ids in endpoints.items():
                kb.execute(cypher[f"{label.lower()}_endpoints"], ids=sorted(ids))
            warm_up = len(sample) // 10  # the first rows are not timed (a cold JVM)
            with kb.driver.session(database=kb.database) as session:
                for number, (statement, parameters) in enumerate(sample):
                    if number == warm_up:
                        created = 0
                        load = loadavg()
                        started = time.perf_counter()
                    summary = session.execute_write(lambda tx: tx.run(statement, **parameters).consume())
                    created += summary.counters.nodes_created + summary.counters.relationships_created
            seconds = time.perf_counter() - started
        per_second = (len(sample) - warm_up) / seconds
        return {
            "sample_rows": len(sample) - warm_up,
            "sample_items_created": created,
            "sample_seconds": round(seconds, 2),
            "items_per_s": round(per_second, 1),
            "extrapolated_seconds": round(total_items / per_second),
            "extrapolated": True,
            "load": load,
        }

    def admin_import(self, directory: Path, export: dict[str, Any]) -> dict[str, Any]:
        self.instance.stop()
        shutil.rmtree(self.instance.home / "data", ignore_errors=True)
        load = loadavg()
        # neo4j-admin in a process of its own, as `paperkg export --load` runs it: its peak RSS.
        importer = measured(
            [sys.executable, str(ROOT / "offline_import.py"), str(self.instance.home), str(directory)],
            self.instance.home,
        )
        imported, import_rss = importer.seconds, importer.peak_rss_mb
        started = time.perf_counter()
        self.start()
        started_in = time.perf_counter() - started
        started = time.perf_counter()
        with self.kb() as kb:
            # As the first command after an import by hand: the export marks the imported graph's
            # lock unfinished, and taking it over finishes the import (schema, lists, the run).
            complete_unfinished_load(kb)
        finished = time.perf_counter() - started
        counted = self.items()
        total = export["seconds"] + imported + started_in + finished
        return {
            "import_seconds": round(imported, 2),
            "import_peak_rss_mb": import_rss,
            "start_seconds": round(started_in, 2),
            "schema_and_lists_seconds": round(finished, 2),
            "export_seconds": export["seconds"],
            "total_seconds": round(total, 2),
            "items": counted["total"],
            "counts": counted,
            "items_per_s_import": round(counted["total"] / imported),
            "items_per_s_end_to_end": round(counted["total"] / total),
            "load": load,
        }


# -- corpora ----------------------------------------------------------------------------------


def corpus_pages(papers: int) -> int:
    return max(1, papers // 100)


def synthetic_corpus(work: Path, papers: int, seed: int) -> Path:
    """The synthetic corpus of `papers` under `work`, generated once and kept."""
    return _kept_corpus(work / f"corpus-{papers}", papers, seed)


def warm_up_corpus(work: Path, papers: int, seed: int) -> Path:
    """The warm-up corpus of `papers` under `work`, of the seed after the corpora's, generated once and kept."""
    return _kept_corpus(work / f"warm-up-{papers}", papers, seed + 1)


def _kept_corpus(corpus: Path, papers: int, seed: int) -> Path:
    if not (corpus / ".complete").exists():
        shutil.rmtree(corpus, ignore_errors=True)
        generate(corpus, papers=papers, pages=corpus_pages(papers), seed=seed)
        (corpus / ".complete").write_text("")
    return corpus


@contextmanager
def changed_files(corpus: Path, seed: int) -> Iterator[tuple[int, int]]:
    """SYNC_FRACTION of the corpus's files changed, half revised (synth.revised) and half
    deleted, for as long as the context lasts (then put back); gives (revised, deleted)."""
    files = sorted(path for path in corpus.iterdir() if not path.name.startswith("."))
    chosen = random.Random(seed).sample(files, max(2, round(len(files) * SYNC_FRACTION)))
    edited, deleted = chosen[: len(chosen) // 2], chosen[len(chosen) // 2 :]
    originals = {path: path.read_bytes() for path in chosen}
    try:
        for path in edited:
            path.write_text(revised(originals[path].decode("utf-8")), encoding="utf-8")
        for path in deleted:
            path.unlink()
        yield len(edited), len(deleted)
    finally:
        for path, data in originals.items():
            path.write_bytes(data)


# -- LOAD CSV and the naive path ---------------------------------------------------------------


def sample_sets(kb: KnowledgeBase) -> tuple[list[str], list[str]]:
    """The papers per-paper queries are sampled from, and the pages claim queries are."""
    papers, pages = (
        [r["id"] for r in kb.cypher(bench_statements(name)[0])] for name in ("sample_papers", "sample_pages")
    )
    return papers, pages


def bench_statements(name: str) -> tuple[str, ...]:
    """The statements of bench/<name>.cypher, read as paperkg reads its own cypher/ files."""
    return read_cypher_file(ROOT / f"{name}.cypher").statements


def named_statements(folder: str) -> dict[str, str]:
    """The single statements of bench/<folder>/*.cypher, by the name each file's header gives."""
    out: dict[str, str] = {}
    for path in sorted((ROOT / folder).glob("*.cypher")):
        loaded = read_cypher_file(path)
        if len(loaded.statements) != 1 or loaded.name in out:
            raise SystemExit(f"bench/{folder}/{path.name}: one statement, named once, per file")
        out[loaded.name] = loaded.statements[0]
    return out


def load_csv_script(directory: Path) -> tuple[str, ...]:
    """The `LOAD CSV` script a user would write by hand for the export in `directory`:
    paperkg's bulk load (cypher/bulk_load.cypher) with each CREATE a MERGE on the constrained
    key, as a load into a graph that may hold the rows must, and every file committed one batch
    of 10,000 rows at a time. Checked, like the bulk load, to read every column of every file."""
    script = tuple(
        CONCURRENT_BATCHES.sub("IN TRANSACTIONS OF 10000 ROWS", text)
        .replace("CREATE (n:", "MERGE (n:")
        .replace("CREATE (a)-[", "MERGE (a)-[")
        for text in statements("bulk_load")
    )
    return checked_script(script, directory, "the benchmark's LOAD CSV script")


def run_load_csv(kb: KnowledgeBase, directory: Path) -> None:
    """`load_csv_script` over the export in `directory`, a folder of the server's import
    directory, in auto-commit transactions (its statements commit every 10,000 rows)."""
    parameters = {"folder": f"file:///{directory.name}", "delimiter": ARRAY_DELIMITER}
    with kb.driver.session(database=kb.database) as session:
        for statement in load_csv_script(directory):
            session.run(statement, parameters).consume()
    # The derived properties by paperkg's one statement of each rule: a hand-written load must
    # derive them too, so they count in the time.
    store_missing_title_lower(kb)
    store_missing_claim_status(kb)


def naive_parameters(name: str, record: dict[str, str]) -> dict[str, Any]:
    """The naive statement's parameters for a row of <name>.csv: the key(s) and the typed properties."""
    if name in RELATIONSHIPS:
        _, start, end, properties = RELATIONSHIPS[name]
        return {
            "start": record[f":START_ID({start})"],
            "end": record[f":END_ID({end})"],
            "properties": typed(record, properties),
        }
    label = next(label for label in NODES if node_file(label) == name)
    key, properties = NODES[label]
    return {"id": record[f"{key}:ID({label})"], "properties": typed(record, properties)}


def typed(record: dict[str, str], properties: dict[str, str]) -> dict[str, Any]:
    from datetime import date, datetime

    convert = {
        "long": int,
        "double": float,
        "boolean": lambda v: v == "true",
        "date": date.fromisoformat,
        "datetime": datetime.fromisoformat,
        "string[]": lambda v: v.split(ARRAY_DELIMITER) if v else [],
        "long[]": lambda v: [int(n) for n in v.split(ARRAY_DELIMITER)] if v else [],
    }
    out = {}
    for name, kind in properties.items():
        value = record.get(f"{name}:{kind}")
        if value is not None:
            out[name] = convert.get(kind, str)(value)
    return out


def read_csv(path: Path):
    import csv

    with open(path, encoding="utf-8", newline="") as handle:
        reader = csv.reader(handle)
        header = next(reader)
        for row in reader:
            yield {name: value for name, value in zip(header, row) if value != ""}


def count_rows(path: Path) -> int:
    return sum(1 for _ in read_csv(path))


# -- measuring --------------------------------------------------------------------------------


def parse_throughput(corpus: Path) -> dict[str, Any]:
    """The parser's own throughput on one core: only the parse of each file is timed, not
    reading it (a corpus kept from an earlier run may have left the page cache; reading is in
    the ingest's figures), and `mb_per_s` is per second of this process's CPU time, which other
    processes on a loaded machine do not take (`wall_mb_per_s` is per second of wall clock)."""
    files = discover([corpus]).files
    total = rejected = 0
    seconds = cpu_seconds = 0.0
    by_kind: dict[str, list[float]] = {}  # kind → [bytes, CPU seconds]: a page parses slower than a card
    for file in files:
        data = file.read_bytes()
        total += len(data)
        started, cpu_started = time.perf_counter(), time.process_time()
        try:
            kind = parse_bytes(data, str(file)).kind
        except ParseError as exc:
            rejected += 1
            kind = "rejected"
            log(f"parse: {exc}")
        seconds += time.perf_counter() - started
        cpu = time.process_time() - cpu_started
        cpu_seconds += cpu
        counted = by_kind.setdefault(kind, [0, 0.0])
        counted[0] += len(data)
        counted[1] += cpu
    return {
        "documents": len(files),
        "rejected": rejected,
        "mb": round(total / 1e6, 1),
        "seconds": round(seconds, 2),
        "cpu_seconds": round(cpu_seconds, 2),
        "mb_per_s": round(total / 1e6 / cpu_seconds, 2),
        "wall_mb_per_s": round(total / 1e6 / seconds, 2),
        "by_kind": {
            kind: {"mb": round(size / 1e6, 1), "mb_per_s": round(size / 1e6 / cpu, 2) if cpu else None}
            for kind, (size, cpu) in sorted(by_kind.items())
        },
        "load": loadavg(),
    }


def median_run(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The run of median duration, with the durations of all."""
    median = sorted(runs, key=lambda run: run["seconds"])[len(runs) // 2]
    return {**median, "runs_seconds": [run["seconds"] for run in runs]}


class ThreadCpu:
    """The CPU seconds a process (the server's JVM) spends while the block runs, in all and by
    thread name: the statements' threads (neo4j.BoltWorker), the JIT's compilers, the garbage
    collector; and the seconds each group was ready to run but waited for a core (the kernel's
    run-queue delay). Its threads are read from /proc every THREAD_SAMPLE_SECONDS; what a thread
    spent after the last read before it ended (all of it, for one that lived between two
    reads) is in the total and under "ended". With `instance`, a server that the block restarts
    (an offline import) is followed: the new one's CPU counts from its start, and the old one's
    up to its last read. Beside it, how many of the machine's cores were busy on average, by
    anyone (/proc/stat): whether the block was bound by the machine's CPU."""

    def __init__(self, pid: int, instance: Instance | None = None) -> None:
        self.pid, self.instance = pid, instance
        self.done = threading.Event()
        self.threads: dict[tuple[int, str], ThreadTimes] = {}  # by process and thread id
        self.ended_servers = 0.0  # the CPU of servers that ended in the block, to their last read
        self.restarted = False

    def __enter__(self) -> ThreadCpu:
        self.machine_before = machine_jiffies()
        self.before_total = self.total_read = process_cpu_seconds(self.pid)
        self.before = {(self.pid, tid): times for tid, times in thread_times(self.pid).items()}
        self.sampler = threading.Thread(target=self._sample, daemon=True)
        self.sampler.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.done.set()
        self.sampler.join()
        self._read()
        self.total = self.ended_servers + self.total_read - self.before_total
        (busy_before, all_before), (busy, all_) = self.machine_before, machine_jiffies()
        self.busy_cores = (os.cpu_count() or 1) * (busy - busy_before) / max(1, all_ - all_before)

    def _sample(self) -> None:
        while not self.done.wait(THREAD_SAMPLE_SECONDS):
            self._read()

    def _read(self) -> None:
        # The old server may linger as a zombie (its parent has not waited for it): the pid the
        # instance names says when a new one serves.
        current = self.instance.pid() if self.instance is not None else None
        if current is not None and current != self.pid:
            self.ended_servers += self.total_read - self.before_total
            self.pid, self.before_total, self.total_read, self.restarted = current, 0.0, 0.0, True
        try:
            threads = thread_times(self.pid)
            self.total_read = process_cpu_seconds(self.pid)
        except FileNotFoundError:  # ended, and not started again yet
            return
        self.threads.update({(self.pid, tid): times for tid, times in threads.items()})

    def seconds(self) -> dict[str, Any]:
        """{"seconds": the total, "threads": {name: CPU seconds}, "waited": {name: seconds
        ready but not running}}, the largest first; "restarted": True when the server was."""
        spent: dict[str, float] = {}
        waited: dict[str, float] = {}
        for tid, times in self.threads.items():
            earlier = self.before.get(tid)
            # A thread id the kernel gave again to a new thread is another thread.
            if earlier is None or earlier.name != times.name:
                earlier = ThreadTimes(times.name, 0.0, 0.0)
            spent[times.name] = spent.get(times.name, 0.0) + times.cpu - earlier.cpu
            waited[times.name] = waited.get(times.name, 0.0) + times.waited - earlier.waited
        spent["ended"] = self.total - sum(spent.values())
        seconds = {
            "seconds": round(self.total, 1),
            "threads": _largest(spent, "ended"),
            "waited": _largest(waited),
            "machine_busy_cores": round(self.busy_cores, 2),
        }
        return {**seconds, "restarted": True} if self.restarted else seconds


def _largest(seconds: dict[str, float], keep: str = "") -> dict[str, float]:
    """To a tenth of a second, the largest first, without the groups that round to nothing."""
    return {
        name: round(value, 1)
        for name, value in sorted(seconds.items(), key=lambda kv: -kv[1])
        if round(value, 1) or name == keep
    }


class ThreadTimes(NamedTuple):
    name: str  # without a trailing number (thread_group)
    cpu: float  # seconds run, user and system (/proc/…/stat)
    waited: float  # seconds ready to run on a run queue (/proc/…/schedstat)


def thread_times(pid: int) -> dict[str, ThreadTimes]:
    """Each thread of a process, by its id."""
    threads = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        task = Path(f"/proc/{pid}/task/{tid}")
        try:
            name, seconds = _cpu_of((task / "stat").read_text())
            waited_ns = int((task / "schedstat").read_text().split()[1])
        except OSError:  # ended meanwhile
            continue
        threads[tid] = ThreadTimes(thread_group(name), seconds, waited_ns / 1e9)
    return threads


def idle_server(instance: Instance) -> tuple[int, float]:
    """The running server's pid once it is idle (`settle`), and the seconds that took."""
    pid = instance.pid()
    if pid is None:
        raise SystemExit(f"the benchmark's server in {instance.home} stopped")
    return pid, settle(pid)


def settle(pid: int) -> float:
    """Wait until the server `pid` is idle, and return the seconds waited. After the warm-up
    and the emptying of its graph, its JIT compilers go on compiling what the warm-up made hot
    for a second or so: a load timed at once would share the machine with that, and a load
    whose client is busy from its first second (the export of paperkg's bulk load) more than
    one that leaves the server a core to itself."""
    started = time.perf_counter()
    used = process_cpu_seconds(pid)
    while time.perf_counter() - started < SETTLE_LIMIT:
        time.sleep(SETTLE_INTERVAL)
        used, before = process_cpu_seconds(pid), used
        if used - before < SETTLED_CPU * SETTLE_INTERVAL:
            break
    return round(time.perf_counter() - started, 1)


def machine_jiffies() -> tuple[int, int]:
    """The machine's CPU time since boot, in clock ticks over all cores: (busy, in all); idle and
    waiting for I/O are not busy."""
    with open("/proc/stat", encoding="ascii") as stat:
        ticks = [int(field) for field in stat.readline().split()[1:]]
    return sum(ticks) - ticks[3] - ticks[4], sum(ticks)


def process_cpu_seconds(pid: int) -> float:
    """A process's CPU seconds, its ended threads' included."""
    return _cpu_of(Path(f"/proc/{pid}/stat").read_text())[1]


def _cpu_of(stat: str) -> tuple[str, float]:
    name, fields = stat_fields(stat)
    return name, (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime, stime


def stat_fields(stat: str) -> tuple[str, list[str]]:
    """A /proc stat line: the command's name (which may hold spaces and parentheses) and the
    fields after it (state, parent, …)."""
    name, _, rest = stat.partition(" (")[2].rpartition(") ")
    return name, rest.split()


def thread_group(name: str) -> str:
    """A thread's name without its number: "GC Thread#1" and "GC Thread#0" are one group.
    (The kernel keeps 15 characters of a name: Neo4j's statement threads are "neo4j.BoltWorke".)"""
    return re.sub(r"[\s#\-\[\]\d]+$", "", name) or name


class Measured(NamedTuple):
    seconds: float
    peak_rss_mb: float  # of the command's processes together (see measured)
    largest_rss_mb: float  # of its largest single process
    peak_pss_mb: float  # of its processes together, each shared page divided among its sharers
    cpu_seconds: float  # of the command and the processes it waited for
    rejected: int


def cache_home(home: Path) -> Path:
    """The XDG_CACHE_HOME of the benchmark's servers and commands: its file-hash cache and the
    server's classpath, not the user's."""
    return home / "cache"


def measured(command: list[str], home: Path) -> Measured:
    """Run a paperkg command against the benchmark's home: wall seconds, peak RSS in MB, and
    the number of documents it rejected (exit 1: the others were written).

    The peak RSS is that of the command and the processes it starts, together: their RSS
    summed every RSS_SAMPLE_SECONDS (pages they share counted in each), and at least the
    largest single process's own peak (its VmHWM). Not the child's rusage: its ru_maxrss
    starts from the RSS of this process, which it was forked from."""
    env = {**os.environ, "PAPERKG_HOME": str(home)}
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        process = subprocess.Popen(command, env=env, stdout=out, stderr=err)
        done = threading.Event()
        peaks = [0, 0, 0]  # the summed RSS, the largest process's VmHWM, the summed PSS
        sampler = threading.Thread(
            target=_sample_tree_memory, args=(process.pid, Instance(home), done, peaks), daemon=True
        )
        sampler.start()
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - started
        done.set()
        sampler.join()
        process.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        errors = err.read().decode(errors="replace")
        if process.returncode not in (0, 1):
            raise SystemExit(f"{' '.join(command)} failed ({process.returncode}):\n{errors[-2000:]}")
        summed, largest, proportional = peaks
        return Measured(
            seconds,
            round(max(summed, largest) / 2**20, 1),
            round(largest / 2**20, 1),
            round(proportional / 2**20, 1),
            round(usage.ru_utime + usage.ru_stime, 1),
            errors.count("paperkg: rejected:"),
        )


def _sample_tree_memory(pid: int, server: Instance, done: threading.Event, peaks: list[int]) -> None:
    # Until the command has been waited for: it stays in /proc as a zombie, without memory, until then.
    # Without the server: the command starts it again after an offline import, as its child.
    while not done.is_set():
        for index, value in enumerate(tree_memory(pid, server.pid())):
            peaks[index] = max(peaks[index], value)
        done.wait(RSS_SAMPLE_SECONDS)


def tree_memory(pid: int, without: int | None = None) -> tuple[int, int, int]:
    """The RSS in bytes of process `pid` and all its descendants (but `without` and its own),
    summed, the largest peak RSS (VmHWM) among them, and their PSS summed, from /proc ((0, 0, 0)
    once they are gone). The summed RSS counts a page that several share (forked, or a file they
    map) in each; the PSS divides it among them."""
    children: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                stat = Path(entry.path, "stat").read_text()
            except OSError:  # ended meanwhile
                continue
            parent = int(stat_fields(stat)[1][1])
            children.setdefault(parent, []).append(int(entry.name))
    summed = largest = proportional = 0
    pending = [pid]
    while pending:
        current = pending.pop()
        if current == without:
            continue
        pending.extend(children.get(current, ()))
        try:
            status = Path(f"/proc/{current}/status").read_text()
        except OSError:
            continue
        kilobytes = {
            name: int(value.split()[0])
            for name, value in (line.split(":", 1) for line in status.splitlines())
            if name in ("VmRSS", "VmHWM")
        }
        summed += kilobytes.get("VmRSS", 0) * 1024
        largest = max(largest, kilobytes.get("VmHWM", 0) * 1024)
        proportional += _pss(current)
    return summed, largest, proportional


def _pss(pid: int) -> int:
    try:
        rollup = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        return 0
    return next((int(line.split()[1]) * 1024 for line in rollup.splitlines() if line.startswith("Pss:")), 0)


def timed(kb: KnowledgeBase, name: str, calls: list[dict[str, Any]]) -> dict[str, Any]:
    kb.query(name, **calls[0])  # warm-up: the plan is compiled and cached
    seconds = []
    for params in calls:
        started = time.perf_counter()
        kb.query(name, **params)
        seconds.append(time.perf_counter() - started)
    seconds.sort()
    return {
        "calls": len(seconds),
        "p50_ms": round(1000 * statistics.median(seconds), 1),
        "p95_ms": round(1000 * seconds[min(len(seconds) - 1, round(0.95 * (len(seconds) - 1)))], 1),
        "max_ms": round(1000 * seconds[-1], 1),
    }


def loadavg() -> float:
    return float(Path("/proc/loadavg").read_text().split()[0])


def machine() -> dict[str, Any]:
    memory = next(line for line in Path("/proc/meminfo").read_text().splitlines() if line.startswith("MemTotal"))
    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        "unknown",
    )
    installed = {name: _version(name) for name in ("neo4j", "neo4j-rust-ext", "pandas")}
    return {
        "cpus": os.cpu_count(),
        "cpu": cpu,
        "memory_gib": round(int(memory.split()[1]) / 2**20, 1),
        "python": sys.version.split()[0],
        "neo4j": "5.26.16 Community",
        "packages": installed,
    }


def _version(distribution: str) -> str | None:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


# -- the table --------------------------------------------------------------------------------


def table(results: dict[str, Any]) -> str:
    m = results["machine"]
    lines = [
        f"machine: {m['cpus']} cores ({m['cpu']}), {m['memory_gib']} GiB; Neo4j {m['neo4j']}, "
        f"heap {results['settings']['heap']}, page cache {results['settings']['pagecache']}",
        "",
    ]
    header = (
        "papers",
        "docs",
        "MB",
        "parse MB/s",
        "items",
        "ingest s",
        "ingest items/s",
        "LOAD CSV items/s",
        "naive items/s*",
        "vs LOAD CSV",
        "--bulk vs LOAD CSV",
        "vs naive",
        "re-ingest",
        "1 % sync",
        "peak RSS MB",
        "load",
    )
    rows = [header]
    for r in results["sizes"]:
        rows.append(
            (
                f"{r['papers']:,}",
                f"{r['parse']['documents']:,}",
                f"{r['parse']['mb']}",
                f"{r['parse']['mb_per_s']}",
                f"{r['items']:,}",
                f"{r['ingest']['seconds']}",
                f"{r['ingest']['items_per_s']:,}",
                f"{r['load_csv']['items_per_s']:,}",
                f"{r['naive']['items_per_s']:,}",
                f"{r['ratios']['ingest_vs_load_csv']}x",
                f"{r['ratios']['bulk_vs_load_csv']}x",
                f"{r['ratios']['ingest_vs_naive']}x",
                f"{100 * r['reingest']['fraction']:.1f}%",
                f"{100 * r['sync']['fraction']:.1f}%",
                f"{r['ingest']['peak_rss_mb']}",
                f"{r['ingest']['load']}",
            )
        )
    lines += _columns(rows)
    lines.append(
        "* naive: one transaction per row, measured on an evenly spread sample and extrapolated "
        + ", ".join(f"({r['naive']['sample_rows']} rows at {r['papers']:,})" for r in results["sizes"])
    )
    lines.append(
        "ingest --bulk (export and LOAD CSV creating; peak RSS of its processes summed): "
        + "; ".join(
            f"{r['papers']:,}: {r['bulk']['seconds']} s against LOAD CSV's {r['load_csv']['seconds']} s, "
            f"{r['bulk']['peak_rss_mb']} MB"
            for r in results["sizes"]
        )
    )
    by_kind = [
        f"{r['papers']:,}: " + ", ".join(f"{kind} {part['mb_per_s']}" for kind, part in r["parse"]["by_kind"].items())
        for r in results["sizes"]
        if "by_kind" in r["parse"]
    ]
    if by_kind:
        lines.append("parse MB/s by kind of document, per CPU second: " + "; ".join(by_kind))
    cpu = [
        f"{r['papers']:,}: LOAD CSV {_cpu_split(r['load_csv'])}, ingest {_cpu_split(r['ingest'])} "
        f"and {r['ingest']['client_cpu']} in paperkg"
        for r in results["sizes"]
        if "server_cpu" in r["ingest"]
    ]
    if cpu:
        lines.append(
            "server CPU s in all (statements / JIT's C2 / GC, and the statements' wait for a core) during "
            "each median first load: " + "; ".join(cpu)
        )
    for r in results["sizes"]:
        if "admin_import" in r:
            lines += ["", offline_line(r) + f" vs {r['items']:,} ingested"]
        if "queries" in r:
            lines += query_lines(r)
    return "\n".join(lines)


# The server's threads that run statements: a session's own, and those of the concurrent
# transactions of `CALL { … } IN n CONCURRENT TRANSACTIONS`.
STATEMENT_THREADS = ("neo4j.BoltWorke", "neo4j.CypherTra")


def _cpu_split(run: dict[str, Any]) -> str:
    threads, waited = run["server_cpu"]["threads"], run["server_cpu"]["waited"]
    statements = round(sum(threads.get(name, 0) for name in STATEMENT_THREADS), 1)
    parts = " / ".join(
        str(seconds) for seconds in (statements, threads.get("C2 CompilerThre", 0), threads.get("GC Thread", 0))
    )
    waited_statements = round(sum(waited.get(name, 0) for name in STATEMENT_THREADS), 1)
    return f"{run['server_cpu']['seconds']} ({parts}, waited {waited_statements})"


def partial_table(run: dict[str, Any]) -> str:
    """The figures of an --offline-only or --ingest-only run."""
    m = run["machine"]
    lines = [
        f"machine: {m['cpus']} cores ({m['cpu']}), {m['memory_gib']} GiB; Neo4j {m['neo4j']}, "
        f"heap {run['settings']['heap']}, page cache {run['settings']['pagecache']}",
    ]
    for r in run["sizes"]:
        if "ingest" in r:
            i = r["ingest"]
            lines += [
                "",
                f"first ingest at {r['papers']:,} papers: {i['seconds']} s, {i['items']:,} items "
                f"({i['items_per_s']:,} items/s), peak RSS {i['peak_rss_mb']} MB (load {i['load']})",
            ]
        if "admin_import" in r:
            lines += ["", offline_line(r)]
        if "queries" in r:
            lines += query_lines(r)
    return "\n".join(lines)


def _pss_of(export: dict[str, Any]) -> str:
    # Older runs did not sample PSS.
    return f", PSS {export['peak_pss_mb']} MB" if "peak_pss_mb" in export else ""


def offline_line(r: dict[str, Any]) -> str:
    a = r["admin_import"]
    importer = f", peak RSS {a['import_peak_rss_mb']} MB" if "import_peak_rss_mb" in a else ""
    return (
        f"offline path at {r['papers']:,} papers: export {a['export_seconds']} s "
        f"(peak RSS {r['export']['peak_rss_mb']} MB{_pss_of(r['export'])}, load {r['export']['load']}), "
        f"neo4j-admin import {a['import_seconds']} s ({a['items_per_s_import']:,} items/s{importer}), start {a['start_seconds']} s, "
        f"schema + lists {a['schema_and_lists_seconds']} s: {a['total_seconds']} s end to end "
        f"({a['items_per_s_end_to_end']:,} items/s; {a['items']:,} items; load {a['load']})"
    )


def query_lines(r: dict[str, Any]) -> list[str]:
    q = r["queries"]
    lines = ["", f"library queries at {r['papers']:,} papers (ms; load {q['load']}):"]
    if "warm" in q:  # older runs did not warm the page cache
        lines.append(f"`paperkg warm` read what the queries read in {q['warm']['seconds']} s")
    if "precompute" in q:
        lines.append(
            f"`paperkg precompute` stored {len(q['precompute']['answers'])} answers in {q['precompute']['seconds']} s"
        )
    query_rows = [("query", "mode", "calls", "p50", "p95", "max")]
    modes = (("per_paper", "per paper"), ("corpus_wide", "corpus-wide"), ("corpus_wide_live", "corpus-wide, live"))
    for mode, label in modes:
        for name, t in q.get(mode, {}).items():
            query_rows.append((name, label, str(t["calls"]), str(t["p50_ms"]), str(t["p95_ms"]), str(t["max_ms"])))
    if "search" in q:  # runs before issue 47 did not search
        s = q["search"]
        for name, label in (
            ("search_claims", "searches"),
            ("search_claims_unsupported", "searches, status"),
            ("search_works", "searches"),
        ):
            t = s[name]
            query_rows.append(
                (
                    name.split("_unsupported")[0],
                    label,
                    str(t["calls"]),
                    str(t["p50_ms"]),
                    str(t["p95_ms"]),
                    str(t["max_ms"]),
                )
            )
    lines += _columns(query_rows)
    if "search" in q:
        s = q["search"]
        words = ", ".join(f"{word} {hits:,} ({s['per_word_p50_ms'][word]} ms)" for word, hits in s["words"].items())
        lines += [
            f"search words, claims found (search_claims p50): {words}",
            f"full-text indexes built in {s['index_build_seconds']} s, "
            + ", ".join(f"{name} {mb} MB" for name, mb in s["index_mb"].items()),
        ]
    return lines


def _columns(rows: list[tuple[str, ...]]) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(cell.rjust(width) if i else cell.ljust(width) for i, (cell, width) in enumerate(zip(row, widths)))
        for row in rows
    ]


if __name__ == "__main__":
    sys.exit(main())
