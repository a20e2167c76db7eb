"""Claim-check pages: the seed page's figures and spot checks, and invented fixtures (FORMAT.md B).

Seed checks compare parsed values with the seed's own text at known line numbers, so no seed text
is copied here.
"""

from __future__ import annotations

from collections import Counter
from datetime import date

import pytest
from pydantic import TypeAdapter

from paperkg.parse import Document, Page, ParseError, parse_bytes, parse_file

from seeds import PAGE_004, fixture_bytes, fixture_lines, fixture_with, join_lines, seed_lines, seed_path

VERDICT_TAIL = " (LLM, conf={:.2f})"


@pytest.fixture(scope="module")
def page() -> Page:
    parsed = parse_file(seed_path(PAGE_004))
    assert isinstance(parsed, Page)
    return parsed


@pytest.fixture(scope="module")
def lines() -> list[str]:
    return seed_lines(PAGE_004)


def _claim_at(page: Page, line: int):
    [claim] = [claim for claim in page.claims if claim.line == line]
    return claim


def _sources(claim) -> list[tuple]:
    return [(s.key, s.matched, s.checked, s.verdict, s.ambiguous, s.line) for s in claim.sources]


# ---------------------------------------------------------------- seed page


def test_seed_page_header_title_abstract_and_snapshot(page, lines):
    assert page.header.model_dump() == {
        "registry_note": lines[0].partition(";")[0],
        "references_found": 232,
        "references_total": 232,
        "sources_checked": 67,
        "sources_total": 249,
    }
    assert (page.title, page.abstract, page.open_access) == (lines[1], lines[3], True)
    assert page.snapshot.tldr == lines[8]
    assert page.snapshot.key_findings == [line[2:] for line in lines[10:14]]
    assert page.snapshot.methods == [line[2:] for line in lines[15:18]]
    assert [(item.kind, "- " + item.kind + ": " + item.text) for item in page.snapshot.limitations] == [
        ("Stated", lines[19]),
        ("Evident", lines[20]),
        ("Evident", lines[21]),
    ]
    assert (page.snapshot.provenance, page.snapshot.disclaimer) == (lines[6], lines[22])
    assert page.nav_labels == ["Registry", "Cites", "Statistics", "Verification"]
    assert page.claims_summary.model_dump() == {
        "checked": 67,
        "cited": 249,
        "supported": 33,
        "flagged": 0,
        "accuracy": "accuracy not yet measured",
        "line": 30,
    }


def test_seed_page_has_240_claims_with_the_stated_breakdown(page):
    claims = page.claims

    assert len(claims) == 240
    assert Counter(claim.origin for claim in claims) == {"main": 111, "flagged": 110, "support_note": 19}
    assert Counter(claim.kind for claim in claims) == {"Premise": 111, "Interpretation": 110, None: 19}
    assert Counter(claim.substantial for claim in claims) == {True: 71, False: 150, None: 19}
    assert Counter(flag for claim in claims for flag in claim.flags) == {
        "probably_not_substantial": 85,
        "two_claims_in_one": 39,
        "quote_partly_states": 1,
    }
    assert Counter(reason for claim in claims for reason in claim.flag_reasons) == {
        "conclusions_may_not_depend": 57,
        "too_vague": 19,
        "no_reason_given": 30,
    }
    assert Counter(claim.support_note for claim in claims if claim.support_note) == {
        "relies_without_support": 21,
        "assumption": 2,
    }
    assert sum(claim.sources_checked or 0 for claim in claims) == 67
    assert sum(claim.sources_total or 0 for claim in claims) == 249
    assert len({claim.text for claim in claims}) == 240
    assert all(claim.flags for claim in claims if claim.origin == "flagged")
    assert not any(claim.flags for claim in claims if claim.origin != "flagged")


def test_seed_page_sources_follow_the_b4_rule(page):
    sources = [source for claim in page.claims for source in claim.sources]

    assert len(sources) == 239
    assert Counter((s.matched, s.checked, s.verdict) for s in sources) == {
        (True, True, "supported"): 26,
        (True, True, "not_supported"): 34,
        (True, False, None): 4,
        (False, False, None): 175,
    }
    assert [s.line for s in sources if s.matched and not s.checked] == [47, 113, 238, 556]
    # L232: N=2, Chang has the verdict, one of Shevlane/Casper was checked; the rule picks the first.
    assert [(s.key, s.line) for s in sources if s.ambiguous] == [("Shevlane et al., 2023", 237)]
    confidences = [s.confidence for s in sources if s.verdict == "not_supported"]
    assert (min(confidences), max(confidences)) == (0.72, 0.88)
    assert all(s.confidence is None and s.rationale is None for s in sources if s.verdict != "not_supported")


def test_seed_page_has_179_distinct_sources_52_of_them_matched(page):
    matched_by_key: dict[str, bool] = {}
    for source in (source for claim in page.claims for source in claim.sources):
        matched_by_key[source.key_norm] = matched_by_key.get(source.key_norm, False) or source.matched

    assert len(matched_by_key) == 179
    assert Counter(matched_by_key.values()) == {False: 127, True: 52}


@pytest.mark.parametrize(
    ("key", "first_author", "year", "suffix", "key_norm"),
    [
        ("Marks et al., 2024", "Marks", 2024, None, "Marks et al., 2024"),
        ("Jain & Wallace, 2019", "Jain", 2019, None, "Jain & Wallace, 2019"),
        ("Nanda, 2023a", "Nanda", 2023, "a", "Nanda, 2023a"),
        ("Wei et al. (2022)", "Wei", 2022, None, "Wei et al., 2022"),
        ("Lindsey et al. (2024)", "Lindsey", 2024, None, "Lindsey et al., 2024"),
        ("[2023]", None, 2023, None, "2023"),
        ("OpenAI, 2023", "OpenAI", 2023, None, "OpenAI, 2023"),
        ("Andreessen Horowitz, 2023", "Andreessen Horowitz", 2023, None, "Andreessen Horowitz, 2023"),
    ],
)
def test_seed_cite_keys_are_split_and_normalised(page, key, first_author, year, suffix, key_norm):
    found = {
        (s.first_author, s.year, s.year_suffix, s.key_norm)
        for claim in page.claims
        for s in claim.sources
        if s.key == key
    }

    assert found == {(first_author, year, suffix, key_norm)}


def test_seed_lindsey_keys_in_both_forms_share_one_key_norm(page):
    norms = {s.key: s.key_norm for claim in page.claims for s in claim.sources if s.first_author == "Lindsey"}

    assert norms == {"Lindsey et al., 2024": "Lindsey et al., 2024", "Lindsey et al. (2024)": "Lindsey et al., 2024"}


def test_seed_claims_with_hidden_sources_keep_n_and_m_without_listed_cites(page):
    hidden = [
        (claim.line, claim.sources_checked, claim.sources_total)
        for claim in page.claims
        if claim.sources_total and not claim.sources
    ]

    assert hidden == [(31, 1, 2), (132, 2, 3), (692, 2, 2), (707, 2, 3)]


def test_seed_claim_at_line_42_unmatched_matched_and_verdict_sources(page, lines):
    claim = _claim_at(page, 42)

    assert (claim.kind, claim.basis, claim.origin) == ("Premise", "citation", "main")
    assert lines[41] == f"- Premisecitation§ {claim.section}"
    assert (claim.text, claim.quotes) == (lines[42], [lines[43][1:-1]])
    assert (claim.substantial, claim.sources_checked, claim.sources_total) == (True, 1, 3)
    assert _sources(claim) == [
        ("Shlegeris et al., 2024", False, False, None, False, 45),
        ("Kosoy et al., 2023", True, False, None, False, 47),
        ("Jumper et al., 2021", True, True, "not_supported", False, 48),
    ]
    verdict = claim.sources[2]
    assert verdict.confidence == 0.76
    assert verdict.rationale + VERDICT_TAIL.format(0.76) == lines[48]


def test_seed_claim_with_a_source_glued_after_experimental(page):
    claim = _claim_at(page, 51)

    assert _sources(claim) == [
        ("Dombrowski et al., 2019", False, False, None, False, 54),
        ("Ghorbani et al., 2019", True, True, "not_supported", False, 56),
        ("Heo et al., 2019", False, False, None, False, 58),
    ]


def test_seed_also_stated_claim_keeps_both_quotes_and_one_section(page, lines):
    claim = _claim_at(page, 541)
    section = lines[543].removeprefix("- Also stated in: § ").removesuffix(" · boosted")

    assert claim.also_stated_in == [section]
    assert claim.also_stated_boosted is True
    assert lines[551] == lines[543]
    assert claim.quotes == [lines[542][1:-1], lines[544][1:-1]]
    assert [(s.key, s.line) for s in claim.sources] == [
        ("Gade et al., 2024", 546),
        ("Lermen et al., 2024", 548),
        ("Arditi et al., 2024", 550),
    ]
    assert (claim.basis, claim.sources_checked, claim.sources_total) == ("reasoning", 0, 3)


def test_seed_rests_on_assumption_claims_take_the_repeating_support_notes(page):
    rests = [
        (claim.line, claim.origin, claim.support_note, claim.support_note_line)
        for claim in page.claims
        if claim.rests_on_assumption
    ]

    assert rests == [
        (389, "main", "relies_without_support", 1183),
        (457, "main", "relies_without_support", 1180),
        (902, "flagged", "relies_without_support", 1186),
        (949, "flagged", "relies_without_support", 1177),
    ]


def test_seed_support_note_claims_are_note_text_quote_triples(page, lines):
    notes = [claim for claim in page.claims if claim.origin == "support_note"]

    assert [claim.line for claim in notes] == [1171, 1174] + list(range(1189, 1238, 3))
    assert [claim.line for claim in notes if claim.support_note == "assumption"] == [1189, 1192]
    for claim in notes:
        assert claim.support_note_line == claim.line
        assert (claim.text, claim.quotes) == (lines[claim.line], [lines[claim.line + 1][1:-1]])
        assert (claim.kind, claim.basis, claim.section, claim.substantial) == (None, None, None, None)
        assert (claim.sources_checked, claim.sources_total, claim.sources) == (None, None, [])
    shared = {tuple(claim.quotes) for claim in notes if claim.line in (1210, 1213, 1216)}
    assert len(shared) == 1


def test_seed_headers_reproduce_their_lines(page, lines):
    for claim in page.claims:
        if claim.origin == "main":
            # A main header ends its physical line, which may start with the previous status line.
            assert lines[claim.line - 1].endswith(f"- {claim.kind}{claim.basis}§ {claim.section}")
            assert claim.text == lines[claim.line]
        elif claim.origin == "flagged":
            assert lines[claim.line - 1] == f"{claim.kind}{claim.basis}§ {claim.section}{claim.text}"


def test_seed_flagged_sections_split_by_known_titles_then_by_case_seams(page):
    known = {claim.section for claim in page.claims if claim.origin == "main"}
    known |= {section for claim in page.claims for section in claim.also_stated_in}
    flagged = [claim for claim in page.claims if claim.origin == "flagged"]
    by_seam = [claim for claim in flagged if claim.section not in known]

    assert (len(flagged) - len(by_seam), len(by_seam)) == (83, 27)
    assert len({claim.section for claim in by_seam}) == 12
    assert {claim.line: claim.section.split(" ")[0] for claim in by_seam if claim.line in (657, 818, 968, 1047)} == {
        657: "2.2.1",
        818: "Feature",
        968: "5.",
        1047: "3.2.1a",
    }
    assert all(claim.text[0].isupper() for claim in flagged)


def test_seed_flag_summary(page):
    assert [entry.model_dump() for entry in page.flag_summary] == [
        {"flag": "probably_not_substantial", "count": 85, "line": 647},
        {"flag": "two_claims_in_one", "count": 39, "line": 648},
        {"flag": "quote_partly_states", "count": 1, "line": 649},
    ]


def _title_line(reference) -> str:
    marker, suffix = ("Self-citation" if reference.self_citation else ""), ("Preprint" if reference.preprint else "")
    return marker + reference.title + suffix


def test_seed_structured_references_and_citing_works(page, lines):
    assert (len(page.references), sum(r.title is not None for r in page.references)) == (200, 171)
    assert (sum(r.self_citation for r in page.references), sum(r.preprint for r in page.references)) == (58, 37)
    assert (len(page.cited_by), sum(r.title is not None for r in page.cited_by)) == (100, 89)
    assert (sum(r.self_citation for r in page.cited_by), sum(r.preprint for r in page.cited_by)) == (19, 53)
    assert page.cites_note == lines[1241]
    assert (page.references_sort_label, page.cited_by_sort_label) == (lines[1613], lines[1773])
    for works in (page.references, page.cited_by):
        counts = [r.cited_by_count for r in works]
        assert counts == sorted(counts, reverse=True)
        for reference in works:
            author_line = lines[reference.line] if reference.title else lines[reference.line - 1]
            if reference.title:
                assert lines[reference.line - 1] == _title_line(reference)
            assert author_line.endswith(f" · doi:{reference.doi} · Cited by {reference.cited_by_count:,}")
    untitled_self_citations = [r.line for r in page.references if r.self_citation and r.title is None]
    assert untitled_self_citations == [1397, 1404, 1480, 1493, 1508, 1519, 1537, 1539, 1572, 1603]


def test_seed_reference_spot_checks(page):
    by_line = {reference.line: reference for reference in page.references}

    assert (by_line[1243].cited_by_count, by_line[1243].year, by_line[1243].venue) == (
        112155,
        2017,
        "Communications of the ACM",
    )
    assert by_line[1243].authors == ["Krizhevsky, A.", "Sutskever, I.", "Hinton, G. E."]
    assert by_line[1255].title is None
    assert (by_line[1314].authors, by_line[1314].venue, by_line[1314].year) == ([], None, 2019)
    assert (by_line[1295].authors[:2], by_line[1295].et_al) == (["Gemini Team", "Anil, R."], True)
    assert by_line[1304].authors == ["Roweis, S. T.", "Zoubin Ghahramani, A."]
    assert (by_line[1358].self_citation, by_line[1358].preprint) == (True, True)
    assert (by_line[1537].self_citation, by_line[1537].title, by_line[1537].authors) == (True, None, [])
    assert by_line[1376].title.endswith("(1953) 307-317.")
    assert by_line[1425].title == "Designing and Interpreting Probes with Control Tasks"  # MODEL.md
    assert by_line[1425].self_citation is True


def test_seed_metadata_about_and_footer(page, lines):
    assert [(entry.key, len(entry.values), entry.line) for entry in page.metadata] == [
        ("Authors", 1, 1965),
        ("ORCID", 0, 1967),
        ("Venue", 1, 1968),
        ("Publisher", 1, 1970),
        ("Published", 1, 1972),
        ("ISSN", 1, 1974),
        ("arXiv", 1, 1976),
        ("OpenAlex", 1, 1978),
        ("Semantic Scholar", 1, 1980),
        ("Cited by", 1, 1982),
        ("References", 1, 1984),
        ("Citations by year", 1, 1986),
        ("Type", 1, 1988),
        ("Language", 1, 1990),
        ("Open access", 2, 1992),
        ("Licence", 0, 1995),
        ("Locations", 2, 1996),
        ("Topics", 3, 1999),
        ("Keywords", 1, 2003),
    ]
    values = {entry.key: entry.values for entry in page.metadata}
    assert (values["Venue"], values["Publisher"], values["arXiv"]) == (["arXiv"], ["arXiv"], ["2501.16496"])
    assert (page.arxiv_id, page.doi) == ("2501.16496", None)
    assert page.about.model_dump() == {
        "extraction_date": date(2026, 11, 8),
        "claim_model": "deepseek-v4.1-flash",
        "claim_prompt": "extract-v3",
        "label_model": "jev-1.13-20260917",
        "check_model": "gpt-6-sol",
        "prose": lines[2005:2011],
    }
    assert page.footer_links == [link.strip() for link in lines[2011].split("›") if link.strip()]
    assert len(page.footer_links) == 3
    assert page.footer_text == [lines[2012]]


def test_seed_reconciliation_flags_exactly_the_b4_mismatches(page):
    assert [(item.what, item.stated, item.parsed, item.ok) for item in page.reconciliation] == [
        ("sources its claims cite (integrity header)", 249, 249, True),
        ("sources checked (integrity header)", 67, 67, True),
        ("cited sources (claims summary)", 249, 249, True),
        ("cited sources checked (claims summary)", 67, 67, True),
        ("supported (claims summary)", 33, 33, True),
        ("flagged (claims summary)", 0, 0, True),
        ("claims flagged probably_not_substantial (flag summary)", 85, 85, True),
        ("claims flagged two_claims_in_one (flag summary)", 39, 39, True),
        ("claims flagged quote_partly_states (flag summary)", 1, 1, True),
        ("research works printed but not linked (lines)", 157, 157, True),
        ("references it cites (integrity header)", 232, 346, False),
        ("references (metadata)", 197, 346, False),
        ("cited by (metadata)", 291, 100, False),
    ]
    notes = {item.what: item.note for item in page.reconciliation}
    assert notes["sources its claims cite (integrity header)"] == (
        "reconciles only as Σ M over claims; 239 sources are listed as '- cites'"
    )
    assert notes["sources checked (integrity header)"] == (
        "reconciles only as Σ N over claims; 64 listed sources are marked ' source'"
    )
    assert notes["supported (claims summary)"] == (
        "reconciles only as Σ N minus 34 verdicts; 30 listed ' source' entries have no verdict"
    )
    assert page.warnings == [
        "references it cites (integrity header): stated 232, parsed 346 (200 structured + 146 raw entries)",
        "references (metadata): stated 197, parsed 346 (200 structured + 146 raw entries)",
        "cited by (metadata): stated 291, parsed 100 (100 citing works are listed)",
    ]


def test_seed_page_round_trips_through_the_document_union(page):
    adapter = TypeAdapter(Document)

    assert adapter.validate_json(adapter.dump_json(page)) == page


# ---------------------------------------------------------------- invented page

FULL = "page_full.txt"


def _claim_rows(page: Page) -> list[tuple]:
    return [
        (
            c.origin,
            c.line,
            c.kind,
            c.basis,
            c.section,
            c.text,
            c.substantial,
            c.sources_checked,
            c.sources_total,
            c.flags,
            c.flag_reasons,
            c.support_note,
            c.support_note_line,
            c.rests_on_assumption,
            c.also_stated_in,
            len(c.quotes),
        )
        for c in page.claims
    ]


def test_invented_page_claims_cover_every_glue_rule():
    page = parse_bytes(fixture_bytes(FULL), FULL)
    drift = "2.1 Drift measures"

    assert _claim_rows(page) == [
        ("main", 26, "Premise", "citation", "1 Introduction", "Hidden states drift during training.",
         False, 1, 2, [], [], None, None, False, [], 1),
        ("main", 29, "Interpretation", "citation", drift, "Drift can be measured with a linear readout.",
         True, 2, 3, [], [], None, None, False, [], 1),
        ("main", 36, "Interpretation", "none given", drift, "Readouts underestimate drift in deep layers.",
         True, 0, 3, [], [], None, None, False, ["4 Discussion"], 2),
        ("main", 48, "Interpretation", "reasoning", "4 Discussion", "Toy models are representative of larger models.",
         False, None, None, [], [], "relies_without_support", 72, True, [], 1),
        ("main", 52, "Premise", "citation", "1 Introduction", "Earlier work reported drift only in recurrent networks.",
         False, 1, 1, [], [], None, None, False, [], 1),
        ("flagged", 60, "Premise", "citation", drift, "Cosine distance is the usual drift measure.",
         False, 0, 1, ["probably_not_substantial"], ["conclusions_may_not_depend"], None, None, False, [], 1),
        ("flagged", 65, "Interpretation", "none given", "3.2 Scaling: A closer look",
         "Larger models drift less and train faster.",
         True, None, None, ["two_claims_in_one"], [], None, None, False, [], 1),
        ("flagged", 68, "Interpretation", "reasoning", "Setup.", "Toy tasks isolate drift from data shift.",
         False, 0, 1, ["probably_not_substantial", "quote_partly_states"], ["too_vague"], None, None, False, [], 1),
        ("support_note", 75, None, None, None, "Drift is harmless once training ends.",
         None, None, None, [], [], "assumption", 75, False, [], 1),
    ]  # fmt: skip
    assert page.claims[2].quotes[1] == "We return to deep-layer drift below (Vale Labs, 2023;Orr et al., 2020;2021)."
    assert page.claims[2].also_stated_boosted is True


def test_invented_page_sources_apply_b4_including_an_ambiguous_pick():
    page = parse_bytes(fixture_bytes(FULL), FULL)
    rows = [
        (s.key, s.first_author, s.year, s.year_suffix, s.key_norm, s.matched, s.checked, s.verdict, s.ambiguous, s.line)
        for claim in page.claims
        for s in claim.sources
    ]

    assert rows == [
        ("Quill & Ross, 2019", "Quill", 2019, None, "Quill & Ross, 2019", True, True, "not_supported", False, 32),
        ("Stone et al. (2022)", "Stone", 2022, None, "Stone et al., 2022", True, True, "supported", True, 34),
        ("Tate, 2018a", "Tate", 2018, "a", "Tate, 2018a", True, False, None, False, 35),
        ("Vale Labs, 2023", "Vale Labs", 2023, None, "Vale Labs, 2023", False, False, None, False, 41),
        ("Orr et al., 2020", "Orr", 2020, None, "Orr et al., 2020", False, False, None, False, 43),
        ("[2021]", None, 2021, None, "2021", False, False, None, False, 45),
        ("Orr et al. (2020)", "Orr", 2020, None, "Orr et al., 2020", True, True, "supported", False, 55),
        ("Ueda, 2017", "Ueda", 2017, None, "Ueda, 2017", False, False, None, False, 62),
        ("Wynn, 2016", "Wynn", 2016, None, "Wynn, 2016", False, False, None, False, 70),
    ]
    verdict = page.claims[1].sources[0]
    assert verdict.confidence == 0.81
    assert verdict.rationale == "The cited paper studies readouts but does not measure drift."


def test_invented_page_works_metadata_and_about():
    page = parse_bytes(fixture_bytes(FULL), FULL)

    assert [r.model_dump() for r in page.references] == [
        {"title": '"Lamps": Early Readouts of Hidden States', "authors": ["Orr, A. B.", "Pike, C.", "Quill, D.-E."],
         "authors_text": "Orr, A. B., Pike, C., & Quill, D.-E.", "et_al": False, "year": 2020,
         "venue": "Journal of Toy Models", "doi": "10.1234/toy.2020.1", "cited_by_count": 1204,
         "self_citation": True, "preprint": True, "line": 81},
        {"title": None, "authors": ["Pike, C."], "authors_text": "Pike, C.", "et_al": False, "year": 2021,
         "venue": "Workshop on Drift", "doi": "10.1234/drift.7", "cited_by_count": 87,
         "self_citation": False, "preprint": False, "line": 83},
        {"title": None, "authors": ["Vale Labs Team", "Ross, E.", "Stone, F. G."],
         "authors_text": "Vale Labs Team, Ross, E., Stone, F. G., et al.", "et_al": True, "year": 2019,
         "venue": None, "doi": "10.1234/x.9", "cited_by_count": 3, "self_citation": True, "preprint": False,
         "line": 84},
        {"title": None, "authors": [], "authors_text": "", "et_al": False, "year": 2018, "venue": None,
         "doi": "10.1234/anon.1", "cited_by_count": 2, "self_citation": False, "preprint": False, "line": 85},
        {"title": "Stone Age? Probing (1999) Tricks $&!#* 🔦", "authors": ["Stone, F.", "Tate, G. H.", "Ueda, I."],
         "authors_text": "Stone, F., Tate, G. H., & Ueda, I.", "et_al": False, "year": 2022, "venue": "arXiv",
         "doi": "10.48550/arxiv.2201.00001", "cited_by_count": 1, "self_citation": False, "preprint": True,
         "line": 86},
    ]  # fmt: skip
    assert [(r.title, r.authors, r.self_citation, r.cited_by_count, r.line) for r in page.cited_by] == [
        ("Beyond Lanterns: Drift in Large Models", ["Wren, K.", "Yates, L."], False, 12, 100),
        (None, ["Zeta, M."], True, 4, 102),
    ]
    assert (page.raw_reference_lines, page.raw_reference_lines_stated, len(page.raw_references)) == (8, 8, 6)
    assert [(e.key, e.values) for e in page.metadata] == [
        ("Authors", ["Orr, A. B., & Pike, C."]),
        ("ORCID", []),
        ("Venue", ["arXiv"]),
        ("Publisher", ["arXiv"]),
        ("Published", ["2024"]),
        ("DOI", ["10.1234/lantern.2024"]),
        ("arXiv", ["2401.00042"]),
        ("Cited by", ["3"]),
        ("References", ["9"]),
        ("Open access", ["green", "arxiv.org"]),
        ("Licence", []),
        ("Topics", ["Toy models"]),
    ]
    assert (page.arxiv_id, page.doi) == ("2401.00042", "10.1234/lantern.2024")
    assert page.about.model_dump(exclude={"prose"}) == {
        "extraction_date": date(2031, 2, 3),
        "claim_model": "lamp-1",
        "claim_prompt": "claims-v9",
        "label_model": "wick-2",
        "check_model": "flame-3",
    }
    assert (page.footer_links, page.footer_text) == (["First link", "Second link"], ["Questions? Write to us"])
    assert [(item.what, item.stated, item.parsed) for item in page.reconciliation if not item.ok] == [
        ("references (metadata)", 9, 11),
        ("cited by (metadata)", 3, 2),
    ]
    assert len(page.warnings) == 2


def test_header_glued_after_experimental_line_is_accepted():
    # Reorder claim B's cites so the verdict-bearing source comes last, then glue the next header.
    data = fixture_with(
        FULL,
        L32="Quote in the paperSubstantial claim2 of 3 sources checked- cites Tate, 2018a source",
        L33="- cites Stone et al. (2022) source",
        L34="- cites Quill & Ross, 2019 source",
        L35="The cited paper studies readouts but does not measure drift. (LLM, conf=0.81)",
        L36="Experimental — accuracy not yet measured - Interpretationnone given§ 2.1 Drift measures",
    )

    page = parse_bytes(data, "glued.txt")

    assert [(c.line, c.section) for c in page.claims[1:3]] == [(29, "2.1 Drift measures"), (36, "2.1 Drift measures")]
    assert [(s.key, s.checked, s.verdict, s.ambiguous) for s in page.claims[1].sources] == [
        ("Tate, 2018a", True, "supported", True),
        ("Stone et al. (2022)", False, None, False),
        ("Quill & Ross, 2019", True, "not_supported", False),
    ]


def test_flags_glued_to_a_status_line_with_n_of_m_start_the_next_flagged_claim():
    data = fixture_with(
        FULL,
        L62="Quote in the paperNot a substantial claim0 of 1 sources checkedIt may state two separate claims as one.",
        L63=None,
        L64=None,
    )

    page = parse_bytes(data, "glued.txt")

    flagged = [(c.line, c.flags, c.sources) for c in page.claims if c.origin == "flagged"]
    assert flagged[:2] == [(60, ["probably_not_substantial"], []), (63, ["two_claims_in_one"], [])]


def test_page_without_abstract_open_access_or_flag_summary():
    data = fixture_with(FULL, L3=None, L4=None, L56=None, L57=None, L58=None)

    page = parse_bytes(data, "bare.txt")

    assert (page.abstract, page.open_access, page.flag_summary) == (None, False, [])
    assert [(item.what, item.stated, item.parsed, item.ok) for item in page.reconciliation][6:9] == [
        ("claims flagged probably_not_substantial (flag summary)", None, 2, False),
        ("claims flagged two_claims_in_one (flag summary)", None, 1, False),
        ("claims flagged quote_partly_states (flag summary)", None, 1, False),
    ]


def test_abstract_heading_without_open_access_badge():
    page = parse_bytes(fixture_with(FULL, L3="Abstract"), "closed.txt")

    assert (page.open_access, page.abstract) == (False, fixture_lines(FULL)[3])


def test_page_layout_variants_and_trailing_blank_lines_parse_to_the_same_page():
    original = fixture_bytes(FULL)
    plain = parse_bytes(original, FULL)

    varied = parse_bytes(b"\xef\xbb\xbf" + original.replace(b"\n", b"\r\n") + b"\r\n\r\n", FULL)

    assert varied.text_meta.model_dump() == {"line_endings": "crlf", "bom": True, "final_newline": True}
    assert varied.model_dump(exclude={"text_meta", "sha256"}) == plain.model_dump(exclude={"text_meta", "sha256"})


def test_a_page_that_names_no_work_is_rejected_at_its_title():
    # No DOI, no arXiv id, a title of punctuation: nothing could identify its paper (issue 21).
    lines = fixture_lines(FULL)
    lines[1] = "?"
    doi = lines.index("- DOI")
    assert lines[doi + 2] == "- arXiv"  # the metadata gives the DOI, then the arXiv id: key, value
    del lines[doi : doi + 4]
    with pytest.raises(ParseError) as rejected:
        parse_bytes(join_lines(lines), "page.txt")
    assert str(rejected.value) == (
        "page.txt:2: the page names no work: its metadata gives no DOI or arXiv id and its title no words"
    )
