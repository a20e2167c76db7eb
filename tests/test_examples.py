"""The README's example corpus: it parses cleanly and has an answer for every kind of question."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperkg.ingest import Card, Page, parse_file
from paperkg.ingest.identity import split_doi
from paperkg.ingest.normalise import title_norm

CORPUS = Path(__file__).resolve().parents[1] / "examples" / "corpus"
# The invented field: plant root imaging. D ← C ← B ← A ← F is the lineage; G has the page.
D, C, B, E, A, F, G = "1811.05532", "1906.01234", "2103.07781", "2107.11820", "2205.03349", "2301.09902", "2402.06618"


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
def page(documents) -> Page:
    return documents[f"page_{G}.txt"]


def test_every_example_parses_without_warnings(documents):
    kinds = sorted(document.kind for document in documents.values())
    assert kinds == ["card"] * 6 + ["page"]
    assert {name: document.warnings for name, document in documents.items() if document.warnings} == {}
    assert all(item.ok for document in documents.values() for item in document.reconciliation)


def test_lineage_runs_four_hops_from_the_survey_to_the_oldest_paper(cites):
    assert {(F, A), (A, B), (B, C), (C, D)} <= cites


def test_two_papers_share_foundations_without_citing_each_other(cites):
    assert {(B, C), (B, D), (E, C), (E, D)} <= cites
    assert (B, E) not in cites and (E, B) not in cites


def test_two_papers_are_cited_together_by_three_others(cites, page):
    card_citers = {citing for citing, cited in cites if cited == B} & {citing for citing, cited in cites if cited == E}
    assert card_citers == {A, F, G}
    page_cites = {split_doi(reference.doi, None)[0] for reference in page.references}
    assert {B, E} <= page_cites  # the page's own reference list agrees


def test_the_page_names_carded_papers_only_by_title_and_publisher_doi(documents, page):
    cards = [document for document in documents.values() if isinstance(document, Card)]
    titles = {title_norm(card.title): card.arxiv_id for card in cards}
    by_title_only = {
        titles[title_norm(reference.title)]
        for reference in page.references
        if reference.title and split_doi(reference.doi, None)[0] is None and title_norm(reference.title) in titles
    }
    assert by_title_only == {C, F}
    raw_titles = {titles.get(title_norm(raw.title)) for raw in page.raw_references if raw.title}
    assert D in raw_titles  # D only in a raw reference string
    assert page.arxiv_id == G


def test_the_page_has_supported_unsupported_unverifiable_uncited_and_flagged_claims(page):
    sources = [source for claim in page.claims for source in claim.sources]
    assert sum(source.verdict == "supported" for source in sources) == 3
    assert sum(source.verdict == "not_supported" for source in sources) == 2
    assert sum(not source.matched for source in sources) == 4  # `Couldn’t be matched …`
    uncited = [claim for claim in page.claims if claim.basis == "none given" and not claim.sources]
    assert len(uncited) == 3
    flagged = [claim for claim in page.claims if claim.origin == "flagged"]
    assert len(flagged) == 4 and all(claim.flags for claim in flagged)
    notes = {claim.support_note for claim in page.claims if claim.support_note}
    assert notes == {"relies_without_support", "assumption"}
    assert len(page.claims) == 13
