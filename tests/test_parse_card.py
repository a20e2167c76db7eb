"""Paper cards: the three seeds and invented fixtures (FORMAT.md A)."""

from __future__ import annotations

import hashlib
from datetime import date

import pytest

from paperkg.parse import Card, ParseError, parse_bytes, parse_file

from seeds import CARD_000, CARD_001, CARD_002, fixture_bytes, seed_lines, seed_path


def _item_line(item) -> str:
    return f"- [{item.title}]({item.url}) ({item.year})"


def _assert_items_reproduce_their_lines(card: Card, lines: list[str]) -> None:
    for card_list in (card.builds_on, card.built_on_by):
        for item in card_list.items if card_list else []:
            assert _item_line(item) == lines[item.line - 1]
            assert item.url.endswith(f"/paper/{item.arxiv_id}/")


def test_seed_000_builds_on_14_and_is_built_on_by_17():
    card = parse_file(seed_path(CARD_000))
    lines = seed_lines(CARD_000)

    assert isinstance(card, Card)
    assert "# " + card.title == lines[0]
    assert (card.arxiv_id, card.html_url) == ("2104.08197", "https://mlsanity.com/paper/2104.08197/")
    assert (card.cited_by_count, card.data_through) == (17, date(2026, 10, 14))
    assert (card.builds_on_in_map, card.reference_count, card.first_posted) == (14, 42, date(2021, 4, 16))
    assert (card.builds_on.shown, card.builds_on.total, card.builds_on.line) == (14, 14, 11)
    assert [item.line for item in card.builds_on.items] == list(range(13, 27))
    assert (card.built_on_by.shown, card.built_on_by.total, card.built_on_by.line) == (17, 17, 28)
    assert [item.line for item in card.built_on_by.items] == list(range(30, 47))
    first = card.builds_on.items[0]
    # Title and id as MODEL.md lists them for this work.
    assert (first.title, first.arxiv_id, first.year) == (
        "Understanding intermediate layers using linear classifier probes",
        "1610.01644",
        2016,
    )
    _assert_items_reproduce_their_lines(card, lines)
    assert card.abstract == lines[49]
    assert [(item.stated, item.parsed, item.ok) for item in card.reconciliation] == [(17, 17, True), (14, 14, True)]
    assert card.warnings == []


def test_seed_001_has_no_builds_on_and_is_built_on_by_30_of_151():
    card = parse_file(seed_path(CARD_001))
    lines = seed_lines(CARD_001)

    assert card.arxiv_id == "2005.00719"
    assert card.builds_on is None
    assert (card.builds_on_in_map, card.reference_count) == (None, None)
    assert (card.cited_by_count, card.first_posted) == (151, date(2020, 5, 2))
    assert (card.built_on_by.shown, card.built_on_by.total, len(card.built_on_by.items)) == (30, 151, 30)
    assert card.built_on_by.line == 10
    haystack = [item for item in card.built_on_by.items if item.arxiv_id == "2305.01610"]
    assert [(item.title, item.year) for item in haystack] == [
        ("Finding Neurons in a Haystack: Case Studies with Sparse Probing", 2023)
    ]
    _assert_items_reproduce_their_lines(card, lines)
    assert card.abstract == lines[-1]
    assert [(item.stated, item.parsed, item.ok) for item in card.reconciliation] == [(151, 151, True)]


def test_seed_002_builds_on_30_of_44_and_is_built_on_by_8():
    card = parse_file(seed_path(CARD_002))
    lines = seed_lines(CARD_002)

    assert (card.builds_on.shown, card.builds_on.total, len(card.builds_on.items)) == (30, 44, 30)
    assert (card.built_on_by.shown, card.built_on_by.total, len(card.built_on_by.items)) == (8, 8, 8)
    assert (card.builds_on_in_map, card.reference_count, card.cited_by_count) == (44, 73, 8)
    # The item year is the publication year, not the id's prefix (A).
    assert [(item.arxiv_id, item.year) for item in card.built_on_by.items if item.line == 50] == [("2501.06196", 2024)]
    _assert_items_reproduce_their_lines(card, lines)
    assert card.abstract == lines[56]
    assert all(item.ok for item in card.reconciliation)


def test_invented_card_parses_to_exactly_this_model():
    card = parse_bytes(fixture_bytes("card_full.txt"), "card_full.txt")

    assert card.model_dump(exclude={"sha256"}) == {
        "kind": "card",
        "path": "card_full.txt",
        "text_meta": {"line_endings": "lf", "bom": False, "final_newline": False},
        "reconciliation": [
            {
                "what": "'Built on by' total vs key fact 'Cited by N papers in the map'",
                "stated": 1204,
                "parsed": 1204,
                "ok": True,
                "note": None,
            },
            {
                "what": "'Builds on' total vs key fact 'Builds on X of its Y references'",
                "stated": 5,
                "parsed": 5,
                "ok": True,
                "note": None,
            },
        ],
        "warnings": [],
        "title": "Lamps [and Wicks]: Reading (Hidden) States -- a Field Guide?",
        "arxiv_id": "cs/0112017",
        "arxiv_url": "https://arxiv.org/abs/cs/0112017",
        "html_url": "https://mlsanity.com/paper/cs/0112017/",
        "cited_by_count": 1204,
        "data_through": date(2031, 2, 3),
        "builds_on_in_map": 5,
        "reference_count": 61,
        "first_posted": date(2001, 12, 9),
        "builds_on": {
            "shown": 2,
            "total": 5,
            "line": 11,
            "items": [
                {
                    "title": "Wick Theory: [Draft] (v2)",
                    "arxiv_id": "9901.00001",
                    "year": 1999,
                    "url": "https://mlsanity.com/paper/9901.00001/",
                    "line": 13,
                },
                {
                    "title": "Flames? Sparks: Notes",
                    "arxiv_id": "0001.00002",
                    "year": 2001,
                    "url": "https://mlsanity.com/paper/0001.00002/",
                    "line": 14,
                },
            ],
        },
        "built_on_by": {
            "shown": 3,
            "total": 1204,
            "line": 16,
            "items": [
                {
                    "title": "Lantern Probes",
                    "arxiv_id": "2401.00042",
                    "year": 2024,
                    "url": "https://mlsanity.com/paper/2401.00042/",
                    "line": 18,
                },
                {
                    "title": "Beyond Lanterns",
                    "arxiv_id": "2309.00003",
                    "year": 2023,
                    "url": "https://mlsanity.com/paper/2309.00003/",
                    "line": 19,
                },
                {
                    "title": "Candles All the Way Down",
                    "arxiv_id": "2412.00004",
                    "year": 2025,
                    "url": "https://mlsanity.com/paper/2412.00004/",
                    "line": 20,
                },
            ],
        },
        "abstract": "We read hidden states with lamps.The `wick' method is at https://example.org/wick and costs $0.",
    }
    assert card.sha256 == hashlib.sha256(fixture_bytes("card_full.txt")).hexdigest()


def test_card_without_builds_on_section_or_fact_and_with_singular_wording():
    card = parse_bytes(fixture_bytes("card_minimal.txt"), "card_minimal.txt")

    assert card.builds_on is None
    assert (card.cited_by_count, card.builds_on_in_map, card.reference_count) == (1, None, None)
    assert (card.built_on_by.shown, card.built_on_by.total) == (1, 1)
    assert card.first_posted == date(2024, 12, 30)
    assert card.abstract == "Candles are small lamps."


def test_list_total_that_disagrees_with_the_key_fact_is_a_warning_not_an_error():
    data = fixture_bytes("card_minimal.txt").replace(b"Cited by 1 paper", b"Cited by 2 papers")

    card = parse_bytes(data, "card.txt")

    assert [(item.stated, item.parsed, item.ok) for item in card.reconciliation] == [(2, 1, False)]
    assert card.warnings == ["'Built on by' total vs key fact 'Cited by N papers in the map': stated 2, parsed 1"]


def test_multi_paragraph_abstract_is_kept_verbatim_with_its_blank_line():
    data = fixture_bytes("card_minimal.txt") + b"\n\nSecond paragraph."

    card = parse_bytes(data, "card.txt")

    assert card.abstract == "Candles are small lamps.\n\nSecond paragraph."


@pytest.mark.parametrize(
    ("transform", "text_meta"),
    [
        (lambda data: data.replace(b"\n", b"\r\n"), {"line_endings": "crlf", "bom": False, "final_newline": False}),
        (lambda data: data.replace(b"\n", b"\r"), {"line_endings": "cr", "bom": False, "final_newline": False}),
        (lambda data: b"\xef\xbb\xbf" + data, {"line_endings": "lf", "bom": True, "final_newline": False}),
        (lambda data: data + b"\n", {"line_endings": "lf", "bom": False, "final_newline": True}),
        (lambda data: data.replace(b"\n", b" \t\n"), {"line_endings": "lf", "bom": False, "final_newline": False}),
        (
            lambda data: data.replace(b"\n", b"\r\n", 3) + b"\r",
            {"line_endings": "mixed", "bom": False, "final_newline": True},
        ),
    ],
    ids=["crlf", "lone-cr", "bom", "final-newline", "trailing-blanks", "mixed"],
)
def test_layout_variants_parse_to_the_same_card_and_report_their_layout(transform, text_meta):
    original = fixture_bytes("card_full.txt")
    plain = parse_bytes(original, "card.txt")

    varied = parse_bytes(transform(original), "card.txt")

    assert varied.text_meta.model_dump() == text_meta
    assert varied.model_dump(exclude={"text_meta", "sha256"}) == plain.model_dump(exclude={"text_meta", "sha256"})
    assert varied.sha256 == hashlib.sha256(transform(original)).hexdigest()


# -- items that name no work, years no work has (issue 21) -----------------------------------

MINIMAL_ITEM = "- [Lantern Probes](https://mlsanity.com/paper/2401.00042/) (2024)"


def _minimal_with(
    item: str = MINIMAL_ITEM, arxiv: str = "2412.00004", title: str = "Candles All the Way Down"
) -> bytes:
    text = fixture_bytes("card_minimal.txt").decode()
    text = text.replace(MINIMAL_ITEM, item).replace("abs/2412.00004", f"abs/{arxiv}")
    return text.replace("# Candles All the Way Down", f"# {title}").encode()


def test_a_list_item_with_neither_an_arxiv_id_nor_a_title_is_rejected_at_its_line():
    with pytest.raises(ParseError) as rejected:
        parse_bytes(_minimal_with("- [?](https://mlsanity.com/paper/1/) (2016)"), "card.txt")
    assert str(rejected.value) == (
        "card.txt:12: list item names no work: its link holds no arXiv id ('1') and its title no words"
    )


def test_a_list_item_with_a_title_or_an_arxiv_id_is_kept():
    by_title = parse_bytes(_minimal_with("- [Lantern Probes](https://mlsanity.com/paper/1/) (2016)"), "card.txt")
    by_id = parse_bytes(_minimal_with("- [?](https://mlsanity.com/paper/2401.00042/) (2016)"), "card.txt")
    assert [item.title for item in by_title.built_on_by.items] == ["Lantern Probes"]
    assert [item.arxiv_id for item in by_id.built_on_by.items] == ["2401.00042"]


def test_a_card_whose_own_paper_has_no_arxiv_id_and_no_title_is_rejected():
    with pytest.raises(ParseError) as rejected:
        parse_bytes(_minimal_with(arxiv="x", title="?!"), "card.txt")
    assert rejected.value.line == 3 and "the card names no work" in rejected.value.reason


def test_an_item_year_no_work_has_is_warned_and_kept():
    card = parse_bytes(_minimal_with("- [Lantern Probes](https://mlsanity.com/paper/2401.00042/) (0000)"), "card.txt")
    assert card.built_on_by.items[0].year == 0
    assert card.warnings == ["line 12: item year 0000 is not a plausible publication year"]
    assert parse_bytes(_minimal_with(), "card.txt").warnings == []
