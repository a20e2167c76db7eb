"""`citation_paths` on a chain of ten citations: its search stops at `max_hops`, whatever the tier.

The query searches no deeper than 3, 6 or 10 hops, by the tier `max_hops` falls in; a path as
long as `max_hops` is found at every bound, and one a hop longer is not.
"""

from __future__ import annotations

import pytest

CHAIN = 11  # papers 0..10; paper n cites paper n-1


def arxiv(number: int) -> str:
    return f"2001.{number:05d}"


@pytest.fixture(scope="module")
def chain(session_kb):
    session_kb.reset()
    session_kb.execute(
        "UNWIND range(0, $last) AS n "
        "CREATE (:Paper {paper_id: 'arxiv:' + $ids[n], arxiv_id: $ids[n], title: 'Link ' + n, year: 2000 + n})",
        last=CHAIN - 1,
        ids=[arxiv(n) for n in range(CHAIN)],
    )
    session_kb.execute(
        "MATCH (p:Paper), (q:Paper) WHERE p.year = q.year + 1 CREATE (p)-[:CITES {sources: ['chain']}]->(q)"
    )
    return session_kb


@pytest.mark.parametrize("max_hops", range(1, 11))
def test_a_chain_as_long_as_max_hops_is_found_and_a_longer_one_is_not(chain, max_hops):
    found = chain.query("citation_paths", paper=arxiv(max_hops), other=arxiv(0), max_hops=max_hops)
    assert [(row["hops"], row["direction"], len(row["papers"])) for row in found] == [
        (max_hops, "builds_on", max_hops + 1)
    ]
    assert found[0]["route"].startswith(f"Link {max_hops} ({2000 + max_hops}) → ")
    if max_hops < 10:
        assert chain.query("citation_paths", paper=arxiv(max_hops + 1), other=arxiv(0), max_hops=max_hops) == []


def test_the_chain_read_from_its_old_end_is_built_on_by(chain):
    found = chain.query("citation_paths", paper=arxiv(2), other=arxiv(6), max_hops=4)
    assert [(row["hops"], row["direction"], row["route"]) for row in found] == [
        (4, "built_on_by", "Link 2 (2002) ← Link 3 (2003) ← Link 4 (2004) ← Link 5 (2005) ← Link 6 (2006)")
    ]
