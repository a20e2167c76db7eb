"""The README's example corpus, examples/corpus: an invented field (root imaging) whose documents
parse cleanly and in which every library query has a meaningful answer."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperkg.library import library
from paperkg.parse import Card, Page, parse_file
from paperkg.parse.identifiers import split_doi
from paperkg.parse.normalise import title_norm

from ecosystem import examples

CORPUS = Path(__file__).resolve().parents[1] / "examples" / "corpus"
# Lineage: F (the survey) ← A ← B ← C ← D ← T; G, K, N and Q have claim-check pages.
T, D, C, B, E, A, F = "1502.06401", "1811.05532", "1906.01234", "2103.07781", "2107.11820", "2205.03349", "2301.09902"
G, K, N, Q = "2402.06618", "2310.05512", "2311.11873", "2405.01127"
# The one page whose totals disagree with its lists (it states 14 references and lists 6).
DIFFERING = {f"page_{N}.txt": {"references it cites (integrity header)", "references (metadata)"}}


@pytest.fixture(scope="module")
def documents() -> dict[str, Card | Page]:
    return {path.name: parse_file(path) for path in sorted(CORPUS.glob("*.txt"))}


@pytest.fixture(scope="module")
def cites(documents) -> set[tuple[str, str]]:
    """(citing, cited) arXiv ids asserted by the cards' lists."""
    pairs = set()
    for card in documents.values():
        if isinstance(card, Card):
            pairs |= {(card.arxiv_id, item.arxiv_id) for item in (card.builds_on.items if card.builds_on else [])}
            pairs |= {(item.arxiv_id, card.arxiv_id) for item in (card.built_on_by.items if card.built_on_by else [])}
    return pairs


@pytest.fixture(scope="module")
def graph(session_kb):
    from paperkg.analysis import analyze

    kb = examples(session_kb)
    analyze(kb)  # the influence, cluster and main path queries read what it writes
    return kb


def test_every_example_parses_and_only_one_page_disagrees_with_itself(documents):
    kinds = sorted(document.kind for document in documents.values())
    assert kinds == ["card"] * 17 + ["page"] * 4
    assert 20 <= len(documents) <= 40
    differing = {
        name: {item.what for item in document.reconciliation if not item.ok} for name, document in documents.items()
    }
    assert {name: what for name, what in differing.items() if what} == DIFFERING
    assert {name: len(document.warnings) for name, document in documents.items() if document.warnings} == {
        name: len(what) for name, what in DIFFERING.items()
    }


def test_cards_agree_with_each_other(documents, cites):
    """Where both papers have cards, each side lists the citation."""
    cards = {document.arxiv_id: document for document in documents.values() if isinstance(document, Card)}
    for citing, cited in cites:
        if citing in cards and cited in cards:
            assert cited in {
                item.arxiv_id for item in (cards[citing].builds_on.items if cards[citing].builds_on else [])
            }
            assert citing in {item.arxiv_id for item in cards[cited].built_on_by.items}


def test_lineage_runs_five_hops_from_the_survey_to_the_oldest_paper(cites):
    assert {(F, A), (A, B), (B, C), (C, D), (D, T)} <= cites


def test_pages_name_their_works_by_arxiv_doi_except_two_by_title(documents):
    cards = {title_norm(d.title): d.arxiv_id for d in documents.values() if isinstance(d, Card)}
    page = documents[f"page_{G}.txt"]
    by_title_only = {
        cards[title_norm(r.title)]
        for r in page.references
        if r.title and split_doi(r.doi, None)[0] is None and title_norm(r.title) in cards
    }
    assert by_title_only == {C, F}
    for name in (f"page_{K}.txt", f"page_{N}.txt", f"page_{Q}.txt"):
        for reference in documents[name].references:
            if reference.title and title_norm(reference.title) in cards:
                assert split_doi(reference.doi, None)[0] == cards[title_norm(reference.title)]


def test_every_library_query_answers_with_its_guide_values(graph):
    """The `:param` values the guide, the README and the notebook use all have answers."""
    for query in library():
        if query.name == "at_risk_claims":
            # No work of the example corpus has mostly unsupported claims (the default share,
            # 0.5): 2402.06618 has one unsupported of four checked, enough at 0.2.
            assert graph.query(query.name, **{**query.browser, "min_share": 0.2}), query.name
            continue
        # An alias's `:param` block also sets what it fixes; its callers give the rest.
        assert graph.query(query.name, **{p.name: query.browser[p.name] for p in query.params}), query.name


def test_lineage_is_three_deep_and_pairs_are_cocited_and_coupled(graph):
    assert max(row["distance"] for row in graph.query("ancestors", paper=A, depth=3)) == 2
    assert max(row["distance"] for row in graph.query("ancestors", paper=G, depth=5)) >= 3
    assert graph.query("citation_paths", paper="2503.04410", other=T)[0]["hops"] == 3
    pairs = graph.query("cocitation_pairs", min_count=2)
    assert {(row["arxiv_id_a"], row["arxiv_id_b"]) for row in pairs if row["cocitations"] == 4} == {(C, B), (D, C)}
    assert {row["arxiv_id"]: row["shared"] for row in graph.query("coupled_with", paper=G)}[F] == 5
    assert graph.query("claim_cocitation", paper=Q, min_count=1)


def test_the_pages_hold_every_claim_status_and_works_miscited_by_several_papers(graph):
    statuses = {}
    for page in (G, K, N, Q):
        for row in graph.query("claim_support_summary", paper=page):
            statuses[row["status"]] = statuses.get(row["status"], 0) + row["claims"]
    assert set(statuses) == {
        "supported",
        "checked_unlisted",
        "unsupported",
        "unverifiable",
        "uncited",
        "sources_missing",
    } and all(statuses.values())
    assert {row["status"]: row["claims"] for row in graph.query("claim_support_summary", paper=K)} == {
        "supported": 3,
        "checked_unlisted": 1,
        "unsupported": 1,
        "unverifiable": 1,
        "uncited": 2,
        "sources_missing": 1,
    }
    miscited = graph.query("miscited_works")
    assert [(row["arxiv_id"], row["papers"]) for row in miscited[:2]] == [(E, 3), (A, 2)]
    assert {row["arxiv_id"] for row in graph.query("claims_citing", paper=E)} == {G, K, Q}


def test_warm_reads_each_part_of_the_graph_that_the_library_queries_read(graph):
    stats = graph.stats()
    counted = graph.cypher(
        "RETURN COUNT { (:Paper)-[:CITES]->() } AS citations, COUNT { (:ChangeSet) } AS change_sets, "
        "COUNT { MATCH (p:Paper) WHERE p.arxiv_id IS NOT NULL } AS arxiv_ids"
    )[0]
    parts = graph.warm()
    assert {part["part"]: part["records"] for part in parts} == {
        "papers": stats["nodes"]["Paper"],
        "arXiv ids": counted["arxiv_ids"],
        "citations": counted["citations"],
        "claims": stats["nodes"]["Claim"],
        "checks": stats["relationships"]["CHECKED_AGAINST"],
        "supports": stats["relationships"]["SUPPORTS"],
        "sources": stats["nodes"]["Source"],
        "sources matched to works": stats["relationships"]["REFERS_TO"],
        "change sets": counted["change_sets"],
    }
    assert all(part["records"] > 0 and part["seconds"] > 0 for part in parts)
    # Each paper holds at least its key and title, each claim its key, text and status.
    properties = {part["part"]: part["properties"] for part in parts}
    assert properties["papers"] >= 2 * stats["nodes"]["Paper"] and properties["claims"] >= 3 * stats["nodes"]["Claim"]
