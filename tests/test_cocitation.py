"""cocitation_pairs against a brute-force count on random citation graphs.

The query counts pairs in two passes, pruned by a floor taken from the most-cited works; here
every pair is counted in Python, so a floor that dropped a pair of the answer would show.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from decimal import ROUND_HALF_UP, Decimal
from itertools import combinations

import pytest


def random_graph(seed: int, works: int = 90, citing: int = 70) -> dict[str, set[str]]:
    """Papers (by paper_id) and what each cites; a few works are cited far more than the rest."""
    rng = random.Random(seed)
    ids = [f"w:{rng.getrandbits(32):08x}" for _ in range(works)]
    weights = [1 / (rank + 1) for rank in range(works)]  # Zipf-like popularity
    graph: dict[str, set[str]] = {paper: set() for paper in ids}
    for paper in ids[:citing]:
        graph[paper] = {cited for cited in rng.choices(ids, weights, k=rng.randint(0, 9)) if cited != paper}
    return graph


def load(kb, graph: dict[str, set[str]]) -> None:
    kb.execute(
        "UNWIND $ids AS id CREATE (:Paper {paper_id: id, title: 'Work ' + substring(id, 2), year: 2000})",
        ids=sorted(graph),
    )
    kb.execute(
        """UNWIND $pairs AS pair
                  MATCH (a:Paper {paper_id: pair[0]}), (b:Paper {paper_id: pair[1]})
                  CREATE (a)-[:CITES]->(b)""",
        pairs=[[paper, cited] for paper, refs in graph.items() for cited in sorted(refs)],
    )


def expected(graph: dict[str, set[str]], min_count: int, limit: int) -> list[tuple]:
    cited_by = Counter(cited for refs in graph.values() for cited in refs)
    pairs = Counter(pair for refs in graph.values() for pair in combinations(sorted(refs), 2))

    def salton(count: int, a: str, b: str) -> float:  # Cypher's round(x, 4): half up on the shortest repr
        score = count / math.sqrt(float(cited_by[a] * cited_by[b]))
        return float(Decimal(repr(score)).quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP))

    rows = [
        ("Work " + a[2:], "Work " + b[2:], a, b, count, salton(count, a, b))
        for (a, b), count in pairs.items()
        if count >= min_count
    ]
    rows.sort(key=lambda row: (-row[4], -row[5], row[0], row[1], row[2], row[3]))
    return rows[:limit]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_cocitation_pairs_equals_a_brute_force_count(kb, seed):
    graph = random_graph(seed)
    load(kb, graph)
    strongest = expected(graph, 1, 1)[0][4]
    assert strongest >= 4  # the floor has something to prune
    for min_count in (1, 2, 3, strongest, strongest + 1):
        for limit in (1, 2, 5, 20, 10_000):
            rows = kb.query("cocitation_pairs", min_count=min_count, limit=limit)
            got = [
                (r["title_a"], r["title_b"], r["paper_id_a"], r["paper_id_b"], r["cocitations"], r["salton"])
                for r in rows
            ]
            assert got == expected(graph, min_count, limit), (min_count, limit)
