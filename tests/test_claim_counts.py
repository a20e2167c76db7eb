"""A paper's stored claim counts (cypher/claim_counts.cypher): `claims_checked` and
`claims_unsupported` agree with its claims' stored status after a sync, a retraction, a page
written again and the schema's repair of a graph without them; a paper making no claim has none.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from paperkg.load.schema import apply_schema
from paperkg.run.ingest import sync_directory

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "corpus"
INVENTED_PAGE = Path(__file__).resolve().parent / "fixtures" / "analysis" / "page_2412.00077.txt"

STORED = """
MATCH (p:Paper) WHERE p.claims_checked IS NOT NULL OR p.claims_unsupported IS NOT NULL
RETURN p.paper_id AS paper_id, p.claims_checked AS checked, p.claims_unsupported AS unsupported
ORDER BY paper_id
"""
RECOUNTED = """
MATCH (p:Paper)-[:MAKES]->(c:Claim)
RETURN p.paper_id AS paper_id,
       count(CASE WHEN c.status IN ['supported', 'checked_unlisted', 'unsupported'] THEN 1 END) AS checked,
       count(CASE WHEN c.status = 'unsupported' THEN 1 END) AS unsupported
ORDER BY paper_id
"""
# By hand from the pages (tests/test_at_risk.py lists each page's checked claims): 2402.06618
# 4 checked, 1 unsupported; 2405.01127 6 and 2; the invented page 2412.00077 2 and 1.
# 2310.05512 and 2311.11873 as their pages say.
BY_HAND = {"arxiv:2402.06618": (4, 1), "arxiv:2405.01127": (6, 2), "arxiv:2412.00077": (2, 1)}


def stored(kb) -> dict[str, tuple[int, int]]:
    return {row["paper_id"]: (row["checked"], row["unsupported"]) for row in kb.cypher(STORED)}


def recounted(kb) -> dict[str, tuple[int, int]]:
    return {row["paper_id"]: (row["checked"], row["unsupported"]) for row in kb.cypher(RECOUNTED)}


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    directory = tmp_path / "corpus"
    shutil.copytree(EXAMPLES, directory)
    shutil.copy(INVENTED_PAGE, directory)
    return directory


def test_counts_are_stored_for_the_papers_that_make_claims(kb, corpus):
    sync_directory(kb, corpus)
    counts = stored(kb)
    assert counts == recounted(kb)
    assert set(counts) == {
        "arxiv:2310.05512",
        "arxiv:2311.11873",
        "arxiv:2402.06618",
        "arxiv:2405.01127",
        "arxiv:2412.00077",
    }
    assert {paper: counts[paper] for paper in BY_HAND} == BY_HAND


def test_a_retracted_page_takes_its_counts_and_brings_them_back(kb, corpus):
    sync_directory(kb, corpus)
    before = stored(kb)
    page = corpus / "page_2405.01127.txt"
    text = page.read_bytes()
    page.unlink()
    sync_directory(kb, corpus)
    after = stored(kb)
    assert "arxiv:2405.01127" not in after  # its card keeps the paper, which makes no claim now
    assert kb.cypher("MATCH (p:Paper {paper_id: 'arxiv:2405.01127'}) RETURN count(p) AS n")[0]["n"] == 1
    assert after == {paper: value for paper, value in before.items() if paper != "arxiv:2405.01127"}
    assert after == recounted(kb)
    page.write_bytes(text)
    sync_directory(kb, corpus)
    assert stored(kb) == before


def test_the_schema_stores_counts_a_graph_lacks(kb, corpus):
    sync_directory(kb, corpus)
    before = stored(kb)
    kb.execute("MATCH (p:Paper) REMOVE p.claims_checked, p.claims_unsupported")
    assert stored(kb) == {}
    apply_schema(kb)
    assert stored(kb) == before
