"""The synthetic corpus: deterministic, parseable, and shaped like the seeds."""

from __future__ import annotations

import difflib
import json
from pathlib import Path

import pytest

from paperkg.corpus.discovery import discover
from paperkg.parse import Card, Page, parse_file
from paperkg.parse.identifiers import split_doi
from paperkg.parse.normalise import title_norm

from synth import TRUTH_FILE, generate, main

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


# -- the identity cases (`--identity-cases`): planted as the truth file says, and nothing else changed


@pytest.fixture(scope="module")
def planted(tmp_path_factory: pytest.TempPathFactory):
    out = tmp_path_factory.mktemp("synth-identity")
    summary = generate(out, papers=PAPERS, pages=PAGES, seed=SEED, identity_cases=True)
    truth = json.loads(Path(summary.truth).read_text(encoding="utf-8"))
    documents = {path.name: parse_file(path) for path in sorted(out.iterdir()) if path.name != TRUTH_FILE}
    return out, truth, documents


def _case(truth, name: str) -> dict:
    (case,) = [case for case in truth["cases"] if case["case"] == name]
    return case


def _mentions(case: dict) -> list[dict]:
    return [mention for work in case["works"] for mention in work["mentions"]]


def _raws_at(documents, mention: dict) -> list:
    return [raw for raw in documents[mention["file"]].raw_references if raw.line == mention["line"]]


def _printed_year(mention: dict) -> int | None:
    year = mention["prints"].get("year")
    return None if year is None else int(str(year)[:4])


def _without_digits(line: str) -> str:
    return "".join(char for char in line if not char.isdigit())


def test_identity_cases_only_add_lines_and_recount_the_totals(corpus, planted):
    plain, _, _ = corpus
    out, truth, _ = planted
    planted_pages = {
        mention["file"] for case in truth["cases"] for mention in _mentions(case) if mention["file"].startswith("page_")
    }
    assert len(planted_pages) == PAGES
    for name, data in _read_dir(plain).items():
        if name not in planted_pages:
            assert (out / name).read_bytes() == data, name
            continue
        # Digits left out: the stated totals (header, claim summary, raw count, metadata) are recounted.
        before = [_without_digits(line) for line in data.decode().split("\n")]
        after = [_without_digits(line) for line in (out / name).read_text(encoding="utf-8").split("\n")]
        matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
        assert {tag for tag, *_ in matcher.get_opcodes()} == {"equal", "insert"}, name


def test_identity_cases_are_deterministic_and_their_truth_is_not_ingested(planted, tmp_path):
    out, _, _ = planted
    assert (
        main(
            [
                "--papers",
                str(PAPERS),
                "--pages",
                str(PAGES),
                "--seed",
                str(SEED),
                "--out",
                str(tmp_path),
                "--identity-cases",
            ]
        )
        == 0
    )
    assert _read_dir(tmp_path) == _read_dir(out)
    assert TRUTH_FILE in {path.name for path in tmp_path.iterdir()}
    assert TRUTH_FILE not in {path.name for path in discover([tmp_path]).files}
    assert main(["--papers", "20", "--pages", "1", "--out", str(tmp_path / "one"), "--identity-cases"]) == 2


def test_every_planted_mention_is_at_its_line_as_printed(planted):
    _, truth, documents = planted
    for case in truth["cases"]:
        for mention in _mentions(case) + case.get("ambiguous", []):
            prints, document = mention["prints"], documents[mention["file"]]
            if mention["as"] == "card subject":
                assert (mention["line"], document.arxiv_id) == (1, prints["arxiv_id"])
            elif mention["as"] == "card item":
                items = [
                    item
                    for section in (document.builds_on, document.built_on_by)
                    if section
                    for item in section.items
                    if item.arxiv_id == prints["arxiv_id"]
                ]
                assert len(items) == 1, mention
            elif mention["as"] == "structured reference":
                (reference,) = [ref for ref in document.references if ref.line == mention["line"]]
                assert (reference.title, reference.year, reference.doi) == (
                    prints["title"],
                    prints["year"],
                    prints["doi"],
                )
            elif "of two on one line" in mention["as"]:
                text = " ".join(raw.text for raw in _raws_at(documents, mention))
                assert all(str(value) in text for value in prints.values()), mention
            else:  # one raw entry of its own
                (raw,) = _raws_at(documents, mention)
                assert title_norm(raw.title) == title_norm(prints["title"]), mention
                assert (raw.year, raw.doi, raw.arxiv_id) == (
                    _printed_year(mention),
                    prints.get("doi"),
                    prints.get("arxiv_id"),
                ), mention


def test_glued_lines_hold_two_entries_with_their_own_ids_and_years(planted):
    _, truth, documents = planted
    case = _case(truth, "glued_ids")
    lines: dict[tuple[str, int], list[dict]] = {}
    for work in case["works"]:
        for mention in work["mentions"]:
            if "of two on one line" in mention["as"]:
                lines.setdefault((mention["file"], mention["line"]), []).append({**mention, "work": work})
    assert len(lines) == 2
    for parts in lines.values():
        assert sorted(part["as"].split(",")[1] for part in parts) == [
            " first of two on one line",
            " second of two on one line",
        ]
        arxiv_part, doi_part = sorted(parts, key=lambda part: "doi" in part["prints"])
        assert abs(arxiv_part["prints"]["year"] - doi_part["prints"]["year"]) > 1
        text = " ".join(raw.text for raw in _raws_at(documents, arxiv_part))  # one entry or two
        assert text.count("https://arxiv.org/abs/") == 1 and text.count("doi: ") == 1
        # The DOI entry's work is a structured reference, with that DOI, on another page.
        elsewhere = [mention for mention in doi_part["work"]["mentions"] if mention["as"] == "structured reference"]
        assert [mention["prints"]["doi"] for mention in elsewhere] == [doi_part["prints"]["doi"]]
        assert elsewhere[0]["file"] != doi_part["file"]


def test_suffix_keys_a_positional_pick_gets_wrong(planted):
    _, truth, documents = planted
    case = _case(truth, "suffix_gaps")
    works = {work["work"]: work for work in case["works"]}
    wrong = 0
    for key in case["keys"]:
        page = documents[key["file"]]
        (source,) = [source for claim in page.claims for source in claim.sources if source.line == key["line"]]
        assert source.key == key["prints"]["key"] and source.year_suffix
        # The page's entries by that author and year, in the resolver's order: structured, then raw.
        by_author = source.first_author
        candidates = [
            (None, (ref.title, ref.year))
            for ref in page.references
            if ref.year == source.year and ref.authors and ref.authors[0].startswith(by_author + ",")
        ]
        candidates += [
            (raw.text.split(str(source.year), 1)[1][:1], (raw.title, raw.year))
            for raw in page.raw_references
            if raw.year == source.year and raw.authors and raw.authors[0].endswith(" " + by_author)
        ]
        # The entries printing the key's suffix are exactly the one the key names (none for a gap).
        work = works.get(key["refers_to"])
        named = (work["title"], work["year"]) if work else None
        assert [entry for suffix, entry in candidates if suffix == source.year_suffix] == ([named] if named else [])
        position = ord(source.year_suffix) - ord("a")
        wrong += (candidates[position][1] if position < len(candidates) else None) != named
    # X's `b` (a gap) and `c` (only 2 candidates), Y's `b` (the 2nd is a structured entry), Z's `a` (a gap) and
    # `b` (the only candidate); X's `a` and Z's key of another year are the two a positional pick gets right.
    assert wrong == 5


def test_a_yearless_raw_title_fits_two_works_years_apart(planted):
    _, truth, documents = planted
    case = _case(truth, "yearless_title")
    earlier, later = case["works"]
    assert earlier["title"] == later["title"] and later["year"] - earlier["year"] > 1
    assert earlier["doi"] != later["doi"]
    (ambiguous,) = case["ambiguous"]
    assert ambiguous["fits"] == [earlier["work"], later["work"]]
    (raw,) = _raws_at(documents, ambiguous)
    assert raw.year is None and title_norm(raw.title) == title_norm(earlier["title"])


def test_a_cut_doi_beside_the_full_one_and_title_only_mentions(planted):
    _, truth, documents = planted
    (work,) = _case(truth, "cut_doi")["works"]
    dois = {mention["as"]: mention["prints"].get("doi") for mention in work["mentions"]}
    cut, full = dois["raw reference cut inside its DOI"], dois["structured reference"]
    assert full == work["doi"] and full.startswith(cut) and len(cut) < len(full)
    titled = [mention for mention in work["mentions"] if mention["as"] == "raw reference, title only"]
    assert len(titled) == 2 and all(raw.doi is None for mention in titled for raw in _raws_at(documents, mention))


def test_a_preprint_on_cards_and_its_published_doi_on_pages(planted):
    _, truth, documents = planted
    (work,) = _case(truth, "preprint_published")["works"]
    kinds = [mention["as"] for mention in work["mentions"]]
    assert kinds.count("card subject") == 1 and "card item" in kinds
    (structured,) = [mention for mention in work["mentions"] if mention["as"] == "structured reference"]
    assert structured["prints"]["doi"] == work["doi"] and not work["doi"].startswith("10.48550/")
    subject = documents[next(mention["file"] for mention in work["mentions"] if mention["as"] == "card subject")]
    assert subject.title == structured["prints"]["title"]
    assert abs(subject.first_posted.year - structured["prints"]["year"]) <= 1
    (both,) = [mention for mention in work["mentions"] if mention["as"] == "raw reference printing both ids"]
    assert both["prints"]["arxiv_id"] == work["arxiv_id"] and both["prints"]["doi"] == work["doi"]
