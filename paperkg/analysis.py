"""Graph algorithms over the citation graph: influence, clusters and the main path (`paperkg analyze`).

The graph is projected from Neo4j in batches (papers in `paper_id` order, each with the papers
it cites), the algorithms run in python-igraph (chosen by measurement: bench/analysis_libs.py,
docs/benchmarks.md#other-benchmarks), and the results are written back to each `Paper` in batches, with the
`AnalysisRun` that computed them:

* `pagerank` over CITES (damping 0.85; a paper citing nothing in the graph spreads its rank
  evenly), `citations` and `references` (in-graph degree);
* `cocitation_cluster` and `coupling_cluster`: Leiden communities (modularity) of the
  co-citation network (two works cited by one paper, weighted by how many cite both) and the
  coupling network (two papers citing one work, weighted by how many works both cite); each
  cluster of two or more papers is a `Cluster` node with a label made of its most central
  papers' titles, its core papers and its neighbouring clusters;
* `main_path` and `key_route`: search-path-count (SPC) main path analysis of the citation
  graph, as knowledge flows (from the cited work to the citing one): the global main path (the
  source-to-sink path of the largest total SPC) and the key-route main path (the top edges by
  SPC, each extended backward and forward along the largest SPC).

Every result is a function of the graph: ties are broken by `paper_id`, and the Leiden run is
seeded.
"""

from __future__ import annotations

import gc
import heapq
import random
import re
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cached_property
from typing import Any

from neo4j import RoutingControl

from paperkg.cypher_files import statement, statements
from paperkg.errors import PaperkgError
from paperkg.write_steps import write_step

PROJECTION_BATCH = 5000  # papers per read of the projection
WRITE_BATCH = 5000  # papers per write transaction
DAMPING = 0.85
CORE_SIZE = 5  # papers that make a cluster's core (its label comes from their titles)
LABEL_WORDS = 3
NEIGHBOUR_CLUSTERS = 5
KEY_ROUTES = 10  # top-SPC edges the key-route main path starts from
LEIDEN_SEED = 1
# Two passes of Leiden (igraph's default) reach all but a sliver of the modularity of iterating
# until nothing moves, in a tenth of the time (bench/analysis_libs.py measures it).
LEIDEN_ITERATIONS = 2
NETWORKS = ("cocitation", "coupling")
# The most links a co-citation or coupling network keeps (weight-1 links go first, then weight 2
# ...): it bounds the memory of community detection on a large corpus.
MAX_NETWORK_LINKS = 2_000_000
NETWORK_BLOCK = 4000  # rows of the sparse product computed at a time
# Words a cluster's label leaves out: they name no topic.
STOP_WORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "do",
        "does",
        "for",
        "from",
        "how",
        "in",
        "into",
        "is",
        "it",
        "its",
        "of",
        "on",
        "or",
        "our",
        "over",
        "than",
        "that",
        "the",
        "their",
        "this",
        "to",
        "towards",
        "under",
        "using",
        "via",
        "vs",
        "we",
        "what",
        "when",
        "where",
        "which",
        "with",
        "without",
        "can",
        "new",
        "not",
        "about",
        "beyond",
    ]
)


# What `paperkg analyze` writes: these properties on every Paper, and nodes of these labels.
# They are a function of the graph, not of the documents (the identity dumps leave them out).


class AnalysisError(PaperkgError):
    """The analysis cannot run (python-igraph missing, or a paper given that is not in the graph)."""


def _igraph():
    try:
        import igraph
        import scipy.sparse  # noqa: F401  (the co-citation and coupling networks)
    except ImportError:
        raise AnalysisError("paperkg analyze needs python-igraph and scipy: pip install 'paperkg[analysis]'") from None
    return igraph


@contextmanager
def _without_gc() -> Iterator[None]:
    """Python's cycle collector paused: the analysis makes millions of small objects and no
    cycles, and each collection would walk them all again (it doubled the analysis's time)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


# -- the projection -------------------------------------------------------------------------


@dataclass
class Projection:
    """Papers by index (in paper_id order) and CITES as (citing index, cited index) pairs: an
    (m, 2) integer array, sorted, without repeats or self-citations."""

    ids: list[str]
    years: list[int | None]
    titles: list[str | None]
    edges: Any

    @classmethod
    def from_rows(cls, rows: Iterable[dict[str, Any]]) -> Projection:
        """Rows of paper_id, year, title and cites (paper_ids) in paper_id order; a cited id
        without a row of its own (written after the read began) is left out."""
        _igraph()
        import numpy as np

        ids: list[str] = []
        years: list[int | None] = []
        titles: list[str | None] = []
        counts: list[int] = []
        cited_ids: list[str] = []
        for row in rows:
            ids.append(row["paper_id"])
            years.append(row["year"])
            titles.append(row["title"])
            counts.append(len(row["cites"]))
            cited_ids.extend(row["cites"])
        count = len(ids)
        position = {paper_id: i for i, paper_id in enumerate(ids)}
        citing = np.repeat(np.arange(count, dtype=np.int64), counts)
        cited = np.array([position.get(b, -1) for b in cited_ids], dtype=np.int64)
        kept = (cited >= 0) & (cited != citing)
        # One integer per pair, sorted as the pairs are; repeats dropped (np.unique's hashing is
        # many times slower than a sort here).
        pairs = np.sort(citing[kept] * max(count, 1) + cited[kept])
        pairs = pairs[np.concatenate(([True], pairs[1:] != pairs[:-1]))] if len(pairs) else pairs
        return cls(ids, years, titles, np.column_stack([pairs // max(count, 1), pairs % max(count, 1)]))

    @cached_property
    def graph(self):
        """The citation graph in python-igraph (citing → cited), built once for every algorithm."""
        ig = _igraph()
        return ig.Graph(n=len(self.ids), edges=self.edges.tolist(), directed=True)


def project(kb: Any, batch: int = PROJECTION_BATCH, paper: str | None = None, depth: int = 3) -> Projection:
    """The citation graph read in batches of `batch` papers; with `paper`, only its lineage (the
    paper and what it builds on, up to `depth` steps) and the citations among those papers."""
    if paper is None:
        with _without_gc():
            return Projection.from_rows(_pages(kb, batch))
    # Breadth-first, one citation step per read: the lineage is small, and a path bound cannot be
    # a parameter.
    rows: list[dict[str, Any]] = []
    seen = {paper}
    frontier = [paper]
    for step in range(depth + 1):
        page = _read(kb, statement("analysis_project_papers"), ids=frontier)
        rows += page
        if step == depth:
            break
        frontier = sorted({cited for row in page for cited in row["cites"]} - seen)
        seen.update(frontier)
    if not rows:
        raise AnalysisError(f"no paper with paper_id {paper!r} in the graph")
    rows.sort(key=lambda row: row["paper_id"])
    return Projection.from_rows(rows)


def _pages(kb: Any, batch: int) -> Iterator[dict[str, Any]]:
    """Every paper with what it cites, keyset-paged by paper_id."""
    after = ""
    while True:
        page = _read(kb, statement("analysis_project"), after=after, batch=batch)[0]["papers"]
        yield from page
        if len(page) < batch:
            return
        after = page[-1]["paper_id"]


def _read(kb: Any, text: str, **parameters: Any) -> list[dict[str, Any]]:
    records, _, _ = kb.driver.execute_query(text, parameters, database_=kb.database, routing_=RoutingControl.READ)
    return [record.data() for record in records]


# -- influence ------------------------------------------------------------------------------


def pagerank(projection: Projection) -> list[float]:
    """PageRank over CITES (a citation passes rank from the citing paper to the cited one)."""
    return projection.graph.pagerank(damping=DAMPING, directed=True)


def degrees(projection: Projection) -> tuple[list[int], list[int]]:
    """(citations, references) of each paper within the graph."""
    import numpy as np

    count = len(projection.ids)
    citations = np.bincount(projection.edges[:, 1], minlength=count).tolist()
    references = np.bincount(projection.edges[:, 0], minlength=count).tolist()
    return citations, references


# -- clusters -------------------------------------------------------------------------------


@dataclass
class Network:
    """An undirected weighted network on the papers: links (a, b) with a < b, their weights, and
    the smallest weight a link needed to be kept."""

    name: str
    links: Any  # an (m, 2) integer array
    weights: Any  # m integers
    min_weight: int


def network(projection: Projection, name: str, max_links: int = MAX_NETWORK_LINKS) -> Network:
    """The co-citation network (two works linked by each paper citing both) or the coupling
    network (two papers linked by each work both cite). Links of weight 1 are kept when the
    network has at most `max_links` links; otherwise the smallest minimum weight that brings it
    under the bound (as CiteSpace and VOSviewer threshold large networks), so the analysis
    keeps to its memory on any corpus and the result stays a function of the graph."""
    import numpy as np
    from scipy import sparse

    count = len(projection.ids)
    edges = np.array(projection.edges, dtype=np.int64).reshape(-1, 2)
    cites = sparse.csr_matrix((np.ones(len(edges), dtype=np.int32), (edges[:, 0], edges[:, 1])), shape=(count, count))
    # Co-citation is Aᵀ·A (rows: cited works), coupling A·Aᵀ (rows: citing papers), one block
    # of rows at a time so that only the block's pairs are ever held at full size.
    rows = cites.T.tocsr() if name == "cocitation" else cites
    columns = rows.T.tocsc()

    def blocks(least: int):
        # Only the pairs (a, b) with a < b are kept: a block of rows is multiplied by the columns
        # from its first row on, which leaves out the half of the product below the diagonal.
        for start in range(0, count, NETWORK_BLOCK):
            block = (rows[start : start + NETWORK_BLOCK] @ columns[:, start:].tocsr()).tocoo()
            kept = (block.col > block.row) & (block.data >= least)
            yield block.row[kept] + start, block.col[kept] + start, block.data[kept]

    # One pass keeps the links of weight 2 and more and counts those of weight 1; only a network
    # small enough to keep its weight-1 links is multiplied out again.
    empty = (np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int32))
    parts = [empty]
    single = 0
    for a, b, w in blocks(1):
        heavier = w >= 2
        single += int(len(w) - heavier.sum())
        parts.append((a[heavier], b[heavier], w[heavier]))
    links = np.column_stack([np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])])
    weights = np.concatenate([p[2] for p in parts])
    if single + len(weights) <= max_links:
        parts = [empty, *blocks(1)]
        links = np.column_stack([np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])])
        weights = np.concatenate([p[2] for p in parts])
        min_weight = 1
    else:
        histogram = np.bincount(weights)
        at_least = np.cumsum(histogram[::-1])[::-1]  # links of weight ≥ w, for each w
        min_weight = next((w for w in range(2, len(at_least)) if at_least[w] <= max_links), len(at_least))
        keep = weights >= min_weight
        links, weights = links[keep], weights[keep]
    links = links.astype(np.int64).reshape(-1, 2)
    return Network(name, links, weights, int(min_weight))


@dataclass
class Clusters:
    """One network's communities: each paper's cluster number (None: in no cluster of two or
    more) and each cluster's label, members' count, core papers and neighbouring clusters."""

    network: str
    membership: list[int | None]
    labels: list[str] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)
    cores: list[list[int]] = field(default_factory=list)
    neighbours: list[list[tuple[int, int]]] = field(default_factory=list)  # (cluster, summed link weight)
    min_weight: int = 1  # the smallest link weight the network kept


def clusters(projection: Projection, name: str, ranks: Sequence[float]) -> Clusters:
    """Leiden communities (modularity, weighted) of the co-citation or coupling network,
    numbered from 0 by size (largest first; ties by their smallest paper_id)."""
    ig = _igraph()
    return communities(projection, network(projection, name), ranks, ig)


def communities(projection: Projection, links: Network, ranks: Sequence[float], ig=None) -> Clusters:
    """Leiden communities of one network, numbered and labelled (see `clusters`)."""
    ig = ig or _igraph()
    count = len(projection.ids)
    graph = ig.Graph(n=count, edges=links.links.tolist(), directed=False)  # from a list: several times faster
    weights = links.weights.tolist()
    state = random.getstate()
    random.seed(LEIDEN_SEED)  # igraph draws from Python's random module
    try:
        found = graph.community_leiden(objective_function="modularity", weights=weights, n_iterations=LEIDEN_ITERATIONS)
    finally:
        random.setstate(state)
    groups: dict[int, list[int]] = defaultdict(list)
    for paper, community in enumerate(found.membership):
        groups[community].append(paper)
    kept = sorted((members for members in groups.values() if len(members) > 1), key=lambda m: (-len(m), m[0]))
    membership: list[int | None] = [None] * count
    for number, members in enumerate(kept):
        for paper in members:
            membership[paper] = number
    result = Clusters(links.name, membership, min_weight=links.min_weight)
    between: dict[int, Counter[int]] = defaultdict(Counter)
    for (ca, cb), weight in _between_clusters(membership, links).items():
        between[ca][cb] += weight
        between[cb][ca] += weight
    for number, members in enumerate(kept):
        core = sorted(members, key=lambda p: (-ranks[p], projection.ids[p]))[:CORE_SIZE]
        result.cores.append(core)
        result.sizes.append(len(members))
        result.labels.append(cluster_label([projection.titles[p] for p in core], [projection.ids[p] for p in core]))
        result.neighbours.append(
            sorted(between[number].items(), key=lambda item: (-item[1], item[0]))[:NEIGHBOUR_CLUSTERS]
        )
    return result


def _between_clusters(membership: Sequence[int | None], links: Network) -> dict[tuple[int, int], int]:
    """(cluster a, cluster b) with a < b → the summed weight of the links between them."""
    import numpy as np

    numbers = np.array([-1 if m is None else m for m in membership], dtype=np.int64)
    if not len(links.weights):
        return {}
    ca, cb = numbers[links.links[:, 0]], numbers[links.links[:, 1]]
    across = (ca >= 0) & (cb >= 0) & (ca != cb)
    low, high = np.minimum(ca[across], cb[across]), np.maximum(ca[across], cb[across])
    keys, inverse = np.unique(low * (len(membership) + 1) + high, return_inverse=True)
    sums = np.bincount(inverse, weights=links.weights[across]).astype(np.int64)
    return {divmod(int(key), len(membership) + 1): int(total) for key, total in zip(keys, sums)}


def cluster_label(titles: Sequence[str | None], ids: Sequence[str]) -> str:
    """The words the core papers' titles use most (ties: first used), or their ids if untitled."""
    counts: Counter = Counter()
    first: dict[str, int] = {}
    for title in titles:
        for word in dict.fromkeys(re.findall(r"[a-z][a-z0-9-]+", (title or "").lower())):
            if word not in STOP_WORDS and len(word) > 2:
                counts[word] += 1
                first.setdefault(word, len(first))
    words = sorted(counts, key=lambda w: (-counts[w], first[w]))[:LABEL_WORDS]
    return ", ".join(words) if words else ", ".join(ids[:LABEL_WORDS])


# -- the main path --------------------------------------------------------------------------


class SearchPathCounts(Mapping):
    """Each flow edge's search path count: the paths from any source to its earlier paper times
    the paths from its later paper to any sink, computed when read (a million big integers held
    at once would cost more time and memory than the whole analysis)."""

    def __init__(self, edges: Any, successors: list[list[int]], from_sources: list[int], to_sinks: list[int]):
        self._edges = edges
        self._successors = successors
        self._from_sources = from_sources
        self._to_sinks = to_sinks

    def __getitem__(self, edge: tuple[int, int]) -> int:
        earlier, later = edge
        if not 0 <= earlier < len(self._successors) or later not in self._successors[earlier]:
            raise KeyError(edge)
        return self._from_sources[earlier] * self._to_sinks[later]

    def __iter__(self) -> Iterator[tuple[int, int]]:
        return (tuple(edge) for edge in self._edges.tolist())

    def __len__(self) -> int:
        return len(self._edges)


@dataclass
class MainPath:
    """The global main path (paper indices, source to sink) and the key-route main path (its
    papers in flow order, and its edges as (earlier, later) index pairs), with each flow edge's SPC."""

    spc: Mapping[tuple[int, int], int]
    global_path: list[int]
    key_route: list[int]
    key_route_edges: list[tuple[int, int]]


def _flow(projection: Projection) -> tuple[Any, Any]:
    """The flow edges (see `flow_edges`) and which citations they keep (a mask over `edges`)."""
    import numpy as np

    count = len(projection.ids)
    component = np.array(projection.graph.connected_components(mode="strong").membership, dtype=np.int64)
    # Each paper's place in (year, then paper_id) order.
    place = np.empty(count, dtype=np.int64)
    ordered = sorted(range(count), key=lambda i: (projection.years[i] or 0, projection.ids[i]))
    place[ordered] = np.arange(count, dtype=np.int64)
    citing, cited = projection.edges[:, 0], projection.edges[:, 1]
    kept = (component[citing] != component[cited]) | (place[cited] < place[citing])
    flow = np.column_stack([cited[kept], citing[kept]])
    return flow[np.lexsort((flow[:, 1], flow[:, 0]))], kept


def flow_edges(projection: Projection) -> Any:
    """Knowledge flow (cited → citing) with citation cycles broken: inside a cycle (a strongly
    connected component), only edges from the earlier paper (year, then paper_id) to the later
    stay. An (m, 2) integer array of (earlier, later) pairs, sorted."""
    return _flow(projection)[0]


def _neighbours(count: int, start: Any, end: Any, id_order: Any) -> list[list[int]]:
    """Each paper's neighbours along (start, end) edges, in paper_id order."""
    import numpy as np

    order = np.lexsort((id_order[end], start))
    ends = end[order].tolist()
    bounds = np.searchsorted(start[order], np.arange(count + 1)).tolist()
    return [ends[bounds[i] : bounds[i + 1]] for i in range(count)]


def main_path(projection: Projection, key_routes: int = KEY_ROUTES) -> MainPath:
    """Search path count main path analysis (Batagelj 2003; global and key-route: Liu & Lu 2012)."""
    import numpy as np

    edges, kept = _flow(projection)
    count = len(projection.ids)
    ids = projection.ids
    id_order = np.empty(count, dtype=np.int64)
    id_order[sorted(range(count), key=ids.__getitem__)] = np.arange(count, dtype=np.int64)
    # Neighbours in paper_id order: the first of equal candidates is the one ties go to.
    successors = _neighbours(count, edges[:, 0], edges[:, 1], id_order)
    predecessors = _neighbours(count, edges[:, 1], edges[:, 0], id_order)
    # Any topological order gives the same results: the flow is the citation graph reversed,
    # less the edges that break cycles.
    acyclic = projection.graph.copy()
    acyclic.delete_edges(np.flatnonzero(~kept).tolist())
    order = acyclic.topological_sorting(mode="in")
    del acyclic
    # Paths from any source to each paper, and from each paper to any sink: exact integers.
    from_sources = [0] * count
    for paper in order:
        before = predecessors[paper]
        from_sources[paper] = sum(map(from_sources.__getitem__, before)) if before else 1
    to_sinks = [0] * count
    for paper in reversed(order):
        after = successors[paper]
        to_sinks[paper] = sum(map(to_sinks.__getitem__, after)) if after else 1
    spc = SearchPathCounts(edges, successors, from_sources, to_sinks)

    # Global: the source-to-sink path of the largest total SPC (ties: the smaller paper_id).
    # An edge's SPC into a paper is from_sources[p] × to_sinks[paper], the same factor for all.
    best: list[int] = [0] * count
    back: list[int | None] = [None] * count
    for paper in order:
        before = predecessors[paper]
        if before:
            sinks = to_sinks[paper]
            p = max(before, key=lambda q: best[q] + from_sources[q] * sinks)
            best[paper], back[paper] = best[p] + from_sources[p] * sinks, p
    global_path: list[int] = []
    ends = [paper for paper in range(count) if predecessors[paper] and not successors[paper]]
    if ends:
        step: int | None = min(ends, key=lambda p: (-best[p], ids[p]))
        while step is not None:
            global_path.append(step)
            step = back[step]
        global_path.reverse()

    # Key-route: the top edges by SPC, each extended backward and forward along the largest SPC
    # (into a paper: the predecessor with the most paths from sources; out of it: the successor
    # with the most paths to sinks).
    route: set[tuple[int, int]] = set()
    flow = edges.tolist()
    counts = [from_sources[a] * to_sinks[b] for a, b in flow]
    if counts:
        # Only the edges reaching the k-th largest count are sorted (ties by paper_id).
        threshold = heapq.nlargest(key_routes, counts)[-1]
        candidates = [(a, b, value) for (a, b), value in zip(flow, counts) if value >= threshold]
    else:
        candidates = []
    del flow, counts
    for a, b, _ in sorted(candidates, key=lambda e: (-e[2], ids[e[0]], ids[e[1]]))[:key_routes]:
        route.add((a, b))
        while predecessors[a]:
            p = max(predecessors[a], key=from_sources.__getitem__)
            route.add((p, a))
            a = p
        while successors[b]:
            s = max(successors[b], key=to_sinks.__getitem__)
            route.add((b, s))
            b = s
    # In flow order: by level (the longest flow path from a source), then paper_id.
    level = [0] * count
    for paper in order:
        before = predecessors[paper]
        if before:
            level[paper] = max(map(level.__getitem__, before)) + 1

    def place(paper: int) -> tuple[int, str]:
        return level[paper], ids[paper]

    members = sorted({paper for edge in route for paper in edge}, key=place)
    return MainPath(spc, global_path, members, sorted(route, key=lambda e: (place(e[0]), place(e[1]))))


# -- the run --------------------------------------------------------------------------------


@dataclass
class AnalysisReport:
    run_id: str
    papers: int
    citations: int
    seconds: dict[str, float]
    clusters: dict[str, int]
    main_path: int
    key_route: int

    def describe(self) -> str:
        timings = ", ".join(f"{name} {seconds:.1f} s" for name, seconds in self.seconds.items())
        return (
            f"analyzed {self.papers:,} papers and {self.citations:,} citations: "
            f"{self.clusters['cocitation']:,} co-citation and {self.clusters['coupling']:,} coupling clusters, "
            f"a main path of {self.main_path} papers, a key-route main path of {self.key_route} ({timings}); "
            f"run {self.run_id}"
        )


def analyze(
    kb: Any, batch: int = WRITE_BATCH, key_routes: int = KEY_ROUTES, log: Callable[[str], None] | None = None
) -> AnalysisReport:
    """Project, compute and write back every result, recorded as one AnalysisRun."""
    with _without_gc():
        return _analyze(kb, batch, key_routes, log)


def _analyze(kb: Any, batch: int, key_routes: int, log: Callable[[str], None] | None) -> AnalysisReport:
    ig = _igraph()
    run_id = str(uuid.uuid4())
    started_at = datetime.now(UTC)
    seconds: dict[str, float] = {}
    clock = time.perf_counter()

    def lap(name: str) -> None:
        nonlocal clock
        now = time.perf_counter()
        seconds[name] = round(now - clock, 2)
        clock = now
        if log:
            log(f"{name}: {seconds[name]:.1f} s")

    projection = project(kb)
    lap("projection")
    ranks = pagerank(projection)
    citations, references = degrees(projection)
    lap("pagerank")
    found = {network: clusters(projection, network, ranks) for network in NETWORKS}
    lap("clusters")
    path = main_path(projection, key_routes)
    lap("main path")

    on_path = {paper: i + 1 for i, paper in enumerate(path.global_path)}
    on_route = {paper: i + 1 for i, paper in enumerate(path.key_route)}
    next_on_route: dict[int, list[str]] = defaultdict(list)
    for a, b in path.key_route_edges:
        next_on_route[a].append(projection.ids[b])
    for statement_text in statements("analysis_schema"):
        write_step()
        kb.execute(statement_text.rstrip(";"))
    rows = [
        {
            "paper_id": projection.ids[i],
            "pagerank": ranks[i],
            "citations": citations[i],
            "references": references[i],
            "cocitation_cluster": found["cocitation"].membership[i],
            "coupling_cluster": found["coupling"].membership[i],
            "main_path": on_path.get(i),
            "key_route": on_route.get(i),
            "key_route_next": sorted(next_on_route.get(i, [])) or None,
        }
        for i in range(len(projection.ids))
    ]
    for start in range(0, len(rows), batch):
        write_step()
        kb.execute(statement("analysis_write_papers"), rows=rows[start : start + batch], run_id=run_id)
    write_step()
    kb.execute(statement("analysis_clear_clusters"))
    cluster_rows = []
    for result in found.values():
        for number, label in enumerate(result.labels):
            cluster_rows.append(
                {
                    "cluster_id": f"{result.network}:{number}",
                    "network": result.network,
                    "number": number,
                    "label": label,
                    "size": result.sizes[number],
                    "core": [projection.ids[p] for p in result.cores[number]],
                    "neighbours": [neighbour for neighbour, _ in result.neighbours[number]],
                    "neighbour_weights": [weight for _, weight in result.neighbours[number]],
                }
            )
    for start in range(0, len(cluster_rows), batch):
        write_step()
        kb.execute(statement("analysis_write_clusters"), rows=cluster_rows[start : start + batch], run_id=run_id)
    lap("write")
    write_step()
    kb.execute(
        statement("analysis_record_run"),
        run_id=run_id,
        properties={
            "started_at": started_at,
            "ended_at": datetime.now(UTC),
            "papers": len(projection.ids),
            "citations": len(projection.edges),
            "library": f"python-igraph {ig.__version__}",
            "damping": DAMPING,
            "key_routes": key_routes,
            "leiden_seed": LEIDEN_SEED,
            "cocitation_clusters": len(found["cocitation"].labels),
            "coupling_clusters": len(found["coupling"].labels),
            "seconds": sum(seconds.values()),
        },
    )
    return AnalysisReport(
        run_id,
        len(projection.ids),
        len(projection.edges),
        seconds,
        {network: len(result.labels) for network, result in found.items()},
        len(path.global_path),
        len(path.key_route),
    )


def main_path_rows(projection: Projection, path: MainPath, kind: str = "global") -> list[dict[str, Any]]:
    """The path's papers in order, as `paperkg main-path` prints them."""
    papers = path.global_path if kind == "global" else path.key_route
    following: dict[int, list[int]] = defaultdict(list)
    edges = list(zip(path.global_path, path.global_path[1:])) if kind == "global" else path.key_route_edges
    for a, b in edges:
        following[a].append(b)
    return [
        {
            "position": i + 1,
            "paper_id": projection.ids[p],
            "year": projection.years[p],
            "title": projection.titles[p],
            "leads_to": sorted(projection.ids[q] for q in following[p]),
            "spc": _readable(max((path.spc[p, q] for q in following[p]), default=None)),
        }
        for i, p in enumerate(papers)
    ]


def _readable(count: int | None) -> int | float | None:
    """A search path count as a float once it has more digits than a float keeps."""
    return float(count) if count is not None and count >= 2**53 else count
