"""Which graph library `paperkg analyze` uses: python-igraph, networkx and rustworkx on one graph.

    .venv/bin/python bench/analysis_libs.py --home /tmp/paperkg-bench/home [--libraries igraph,networkx,rustworkx]

Projects the graph of the database (the managed Neo4j in --home, e.g. the benchmark's 50k
corpus) in batches with `paperkg.analysis.project`, builds its co-citation and coupling networks,
and then, for each library in a process of its own (so each peak memory is its own), times:
loading the citation graph, PageRank, community detection on both networks (igraph: Leiden;
networkx: Louvain, its Leiden needs a backend; rustworkx has neither) and the main path (the
library's topological sort of the cycle-broken flow graph, then the same search-path-count code). Prints seconds and the process's peak
resident memory (and its growth over the
unpickled input: what the library's graphs and algorithms take). Not part of the test suite (docs/benchmarks.md#other-benchmarks).
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

LIBRARIES = ("igraph", "networkx", "rustworkx")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--home", help="the managed Neo4j's home (default: $PAPERKG_HOME)")
    parser.add_argument("--libraries", default=",".join(LIBRARIES))
    parser.add_argument("--one", help=argparse.SUPPRESS)  # the child: LIBRARY:PICKLE
    args = parser.parse_args()
    if args.one:
        library, path = args.one.split(":", 1)
        print(json.dumps(run_library(library, Path(path))))
        return 0

    from paperkg.analysis import NETWORKS, flow_edges, network, project
    from paperkg.db import connect

    for name in ("NEO4J_URI", "NEO4J_USERNAME", "NEO4J_PASSWORD", "NEO4J_DATABASE"):
        os.environ.pop(name, None)
    started = time.perf_counter()
    with connect(home=args.home) as kb:
        projection = project(kb)
    projected = time.perf_counter() - started
    started = time.perf_counter()
    networks = {name: network(projection, name) for name in NETWORKS}
    paired = time.perf_counter() - started
    print(
        f"projection: {len(projection.ids):,} papers, {len(projection.edges):,} citations in {projected:.2f} s; "
        f"networks (scipy, the same for every library): "
        + ", ".join(f"{name} {len(n.weights):,} links of weight >= {n.min_weight}" for name, n in networks.items())
        + f" in {paired:.2f} s; peak RSS {peak_mb():.0f} MB"
    )
    with tempfile.TemporaryDirectory() as work:
        data = Path(work) / "graph.pickle"
        with data.open("wb") as out:
            pickle.dump(
                {
                    "n": len(projection.ids),
                    "edges": list(map(tuple, projection.edges.tolist())),
                    "years": projection.years,
                    "ids": projection.ids,
                    "flow": list(map(tuple, flow_edges(projection).tolist())),
                    "networks": {k: (v.links.tolist(), v.weights.tolist()) for k, v in networks.items()},
                },
                out,
            )
        del projection, networks
        print(
            f"{'library':<10} {'load s':>7} {'pagerank s':>10} {'clusters s':>10} {'main path s':>11} "
            f"{'total s':>8} {'peak MB':>8} {'graph MB':>8}  communities (co-citation / coupling)"
        )
        for library in args.libraries.split(","):
            started = time.perf_counter()
            child = subprocess.run(
                [sys.executable, __file__, "--one", f"{library}:{data}"], capture_output=True, text=True
            )
            if child.returncode != 0:
                print(
                    f"{library:<10} failed after {time.perf_counter() - started:.0f} s: "
                    f"{(child.stderr.strip().splitlines() or ['killed'])[-1]}"
                )
                continue
            if child.returncode != 0:
                print(f"{library:<10} failed: {child.stderr.strip().splitlines()[-1]}")
                continue
            row = json.loads(child.stdout)
            total = sum(row[k] for k in ("load", "pagerank", "clusters", "main_path"))
            print(
                f"{library:<10} {row['load']:>7.2f} {row['pagerank']:>10.2f} {row['clusters']:>10} "
                f"{row['main_path']:>11.2f} {total:>8.2f} {row['peak_mb']:>8.0f} {row['peak_mb'] - row['baseline_mb']:>8.0f}  "
                f"{row['communities']}"
            )
    return 0


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run_library(library: str, path: Path) -> dict[str, Any]:
    with path.open("rb") as data:
        graph = pickle.load(data)
    out: dict[str, Any] = {"baseline_mb": round(peak_mb())}
    clock = time.perf_counter()

    def lap(name: str) -> None:
        nonlocal clock
        now = time.perf_counter()
        out[name] = round(now - clock, 2)
        clock = now

    n, edges = graph["n"], graph["edges"]
    if library == "igraph":
        import igraph as ig

        g = ig.Graph(n=n, edges=edges, directed=True)
        lap("load")
        g.pagerank(damping=0.85)
        lap("pagerank")
        found = []
        for pairs, weights in graph["networks"].values():
            u = ig.Graph(n=n, edges=pairs, directed=False)
            found.append(len(u.community_leiden(objective_function="modularity", weights=weights, n_iterations=2)))
        lap("clusters")
        order = ig.Graph(n=n, edges=graph["flow"], directed=True).topological_sorting(mode="out")
    elif library == "networkx":
        import networkx as nx

        g = nx.DiGraph()
        g.add_nodes_from(range(n))
        g.add_edges_from(edges)
        lap("load")
        nx.pagerank(g, alpha=0.85)
        lap("pagerank")
        found = []
        for pairs, weights in graph["networks"].values():
            u = nx.Graph()
            u.add_nodes_from(range(n))
            u.add_weighted_edges_from((a, b, w) for (a, b), w in zip(pairs, weights))
            found.append(len(nx.community.louvain_communities(u, weight="weight", seed=1)))
        lap("clusters")
        flow = nx.DiGraph()
        flow.add_nodes_from(range(n))
        flow.add_edges_from(graph["flow"])
        order = list(nx.topological_sort(flow))
    elif library == "rustworkx":
        import rustworkx as rx

        g = rx.PyDiGraph()
        g.add_nodes_from(range(n))
        g.add_edges_from_no_data(edges)
        lap("load")
        rx.pagerank(g, alpha=0.85)
        lap("pagerank")
        found = ["no community detection in rustworkx"]
        lap("clusters")
        flow = rx.PyDiGraph()
        flow.add_nodes_from(range(n))
        flow.add_edges_from_no_data(graph["flow"])
        order = list(rx.topological_sort(flow))
    else:
        raise SystemExit(f"unknown library {library}")
    spc_main_path(n, graph["flow"], order)
    lap("main_path")
    out["communities"] = " / ".join(map(str, found))
    out["peak_mb"] = round(peak_mb())
    return out


def spc_main_path(n: int, edges: list[tuple[int, int]], order: list[int]) -> int:
    """Search path counts and the global main path over flow edges (cited → citing, cycles
    broken as paperkg.analysis.flow_edges does), in `order` (the same code for every library)."""
    successors: list[list[int]] = [[] for _ in range(n)]
    predecessors: list[list[int]] = [[] for _ in range(n)]
    for earlier, later in edges:
        successors[earlier].append(later)
        predecessors[later].append(earlier)
    from_sources = [0] * n
    for paper in order:
        from_sources[paper] = sum(from_sources[p] for p in predecessors[paper]) if predecessors[paper] else 1
    to_sinks = [0] * n
    for paper in reversed(order):
        to_sinks[paper] = sum(to_sinks[s] for s in successors[paper]) if successors[paper] else 1
    best = [0] * n
    for paper in order:
        for p in predecessors[paper]:
            best[paper] = max(best[paper], best[p] + from_sources[p] * to_sinks[paper])
    return max(best, default=0).bit_length()


if __name__ == "__main__":
    sys.exit(main())
