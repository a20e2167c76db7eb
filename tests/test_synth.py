"""The synthetic corpus: deterministic, parseable, and shaped like the seeds."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperkg.ingest import Card, Page, parse_file
from paperkg.ingest.identity import split_doi
from paperkg.ingest.normalise import title_norm
from paperkg.synth import generate

PAPERS, PAGES, SEED = 150, 4, 11
# The only mismatches the seed page has too: stated reference totals and the top-100 `Cited by`.
SEED_PAGE_MISMATCHES = {"references it cites (integrity header)", "references (metadata)", "cited by (metadata)"}


def _read_dir(directory: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(directory.iterdir())}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory):
    out = tmp_path_factory.mktemp("synth")
    summary = generate(out, papers=PAPERS, pages=PAGES, seed=SEED)
    documents = {path.name: parse_file(path) for path in sorted(out.iterdir())}
    return out, summary, documents


def _cards(documents) -> list[Card]:
    return [document for document in documents.values() if isinstance(document, Card)]


def _pages(documents) -> list[Page]:
    return [document for document in documents.values() if isinstance(document, Page)]


def test_same_seed_writes_identical_bytes(corpus, tmp_path):
    out, _, _ = corpus
    generate(tmp_path, papers=PAPERS, pages=PAGES, seed=SEED)
    assert _read_dir(tmp_path) == _read_dir(out)


def test_different_seed_writes_different_documents(corpus, tmp_path):
    out, _, _ = corpus
    generate(tmp_path, papers=PAPERS, pages=PAGES, seed=SEED + 1)
    first, second = _read_dir(out), _read_dir(tmp_path)
    assert len(first) == len(second) == PAPERS + PAGES
    assert set(first) != set(second)  # other arXiv ids, so other file names
    assert set(first.values()).isdisjoint(second.values())


def test_summary_counts_what_was_written(corpus):
    out, summary, documents = corpus
    assert (summary.papers, summary.cards, summary.pages, summary.files) == (PAPERS, PAPERS, PAGES, PAPERS + PAGES)
    assert summary.bytes_written == sum(len(data) for data in _read_dir(out).values())
    pages = _pages(documents)
    assert summary.claims == sum(len(page.claims) for page in pages)
    assert summary.references == sum(len(page.references) for page in pages)
    assert summary.raw_reference_lines == sum(page.raw_reference_lines for page in pages)
    assert summary.citing_works == sum(len(page.cited_by) for page in pages)
    lists = [card_list for card in _cards(documents) for card_list in (card.builds_on, card.built_on_by) if card_list]
    items = sum(len(card_list.items) for card_list in lists)
    assert summary.card_list_items == items


def test_every_card_parses_without_warnings_and_every_page_only_with_the_seed_pages_mismatches(corpus):
    _, _, documents = corpus
    assert len(_cards(documents)) == PAPERS and len(_pages(documents)) == PAGES
    for card in _cards(documents):
        assert card.warnings == [], card.path
        assert (card.text_meta.line_endings, card.text_meta.bom, card.text_meta.final_newline) == ("lf", False, False)
    for page in _pages(documents):
        failed = {item.what for item in page.reconciliation if not item.ok}
        assert failed <= SEED_PAGE_MISMATCHES, page.path
        assert len(page.warnings) == len(failed), page.warnings


def test_pages_have_as_many_claims_as_the_seed_page_and_its_mix_of_kinds(corpus):
    _, _, documents = corpus
    for page in _pages(documents):
        listed = [claim for claim in page.claims if claim.origin != "support_note"]
        assert 90 <= len(listed) <= 220
        assert 100 <= len(page.claims) <= 260
        kinds = {(claim.kind, claim.basis) for claim in listed}
        assert ("Premise", "reasoning") not in kinds  # never on the seed page
        assert {("Premise", "citation"), ("Interpretation", "reasoning")} <= kinds
        assert {flag.flag for flag in page.flag_summary} == {
            "probably_not_substantial", "two_claims_in_one", "quote_partly_states"}  # fmt: skip
        assert all(claim.flags for claim in page.claims if claim.origin == "flagged")
        assert 50 <= len(page.references) + len(page.raw_references) <= 400


def test_pages_carry_every_quirk_of_the_seed_page(corpus):
    _, _, documents = corpus
    claims = [claim for page in _pages(documents) for claim in page.claims]
    sources = [source for claim in claims for source in claim.sources]
    references = [reference for page in _pages(documents) for reference in page.references + page.cited_by]
    raws = [raw for page in _pages(documents) for raw in page.raw_references]
    found = {
        "verdict": any(source.verdict == "not_supported" for source in sources),
        "supported": any(source.verdict == "supported" for source in sources),
        "unmatched": any(not source.matched for source in sources),
        "matched but not checked": any(source.matched and not source.checked for source in sources),
        "hidden sources": any(claim.sources_total and not claim.sources for claim in claims),
        "no N of M": any(claim.origin != "support_note" and claim.sources_total is None for claim in claims),
        "rests on an assumption": any(claim.rests_on_assumption and claim.support_note for claim in claims),
        "support note only": any(claim.origin == "support_note" for claim in claims),
        "assumption note": any(claim.support_note == "assumption" for claim in claims),
        "also stated in": any(claim.also_stated_in for claim in claims),
        "flag reasons": any(claim.flag_reasons for claim in claims),
        "parenthesised key": any(source.key.endswith(")") for source in sources),
        "year suffix": any(source.year_suffix for source in sources),
        "untitled reference": any(reference.title is None for reference in references),
        "self-citation": any(reference.self_citation for reference in references),
        "preprint": any(reference.preprint for reference in references),
        "thousands separator": any((reference.cited_by_count or 0) >= 1000 for reference in references),
        "continuation line": any(raw.continuation_lines for raw in raws),
        "link label": any(raw.link_labels for raw in raws),
    }
    assert [quirk for quirk, present in found.items() if not present] == []


def test_card_lists_are_cut_at_30_key_facts_can_be_missing_and_years_can_differ_from_the_id(corpus):
    _, _, documents = corpus
    cards = _cards(documents)
    lists = [card_list for card in cards for card_list in (card.builds_on, card.built_on_by) if card_list]
    assert all(card_list.shown == len(card_list.items) <= 30 for card_list in lists)
    assert any(card_list.shown < card_list.total for card_list in lists)
    assert any(card.builds_on is None and card.builds_on_in_map is None for card in cards)
    new_style = [item for card_list in lists for item in card_list.items if "/" not in item.arxiv_id]
    assert any(item.year != 2000 + int(item.arxiv_id[:2]) for item in new_style)


def test_pages_name_carded_papers_by_arxiv_id_by_title_only_and_in_raw_references(corpus):
    _, _, documents = corpus
    by_title = {title_norm(card.title): card.arxiv_id for card in _cards(documents)}
    carded = set(by_title.values())
    via_arxiv = via_title = via_raw = 0
    for page in _pages(documents):
        assert page.arxiv_id in carded  # the page's own paper has a card too
        for reference in page.references:
            arxiv_id, _ = split_doi(reference.doi, None)
            via_arxiv += arxiv_id in carded
            via_title += arxiv_id is None and reference.title is not None and title_norm(reference.title) in by_title
        via_raw += sum(raw.title is not None and title_norm(raw.title) in by_title for raw in page.raw_references)
    assert via_arxiv >= 10 and via_title >= 10 and via_raw >= 10


def test_old_style_arxiv_ids_appear_in_a_large_graph(tmp_path):
    generate(tmp_path, papers=2000, pages=0, seed=3)
    names = [path.name for path in tmp_path.iterdir()]
    assert any(name.startswith("card_cs_") for name in names)  # cs/0112017 → card_cs_0112017.txt
    card = parse_file(next(path for path in tmp_path.iterdir() if path.name.startswith("card_cs_")))
    assert card.arxiv_id.startswith("cs/")
