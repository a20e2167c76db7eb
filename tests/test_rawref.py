"""Raw reference strings → best-effort records (FORMAT.md B.8), and the title key they feed (MODEL.md)."""

from __future__ import annotations

import unicodedata

import pytest

from paperkg.parse import parse_file
from paperkg.parse.normalise import title_norm
from paperkg.parse.rawref import parse_raw_reference, parse_raw_references, strip_link_labels

from seeds import PAGE_004, seed_lines, seed_path


@pytest.fixture(scope="module")
def raw():
    return parse_file(seed_path(PAGE_004)).raw_references


# ---------------------------------------------------------------- invented strings


def test_conference_entry_yields_authors_title_venue_year_and_url():
    fields = parse_raw_reference(
        "Ada B. Orr, Cy D. E. Pike, and Dee Quill. Lamps: early readouts of hid- den states. "
        "In E. Fox and G. Hale (eds.), Advances in Toy Learn- ing, volume 3, pp. 10-20. "
        "Lamp Press, 2020. URL https://example.org/ papers/lamps.pdf."
    )

    assert fields.model_dump() == {
        "authors": ["Ada B. Orr", "Cy D. E. Pike", "Dee Quill"],
        "title": "Lamps: early readouts of hidden states",
        "year": 2020,
        "venue": "Advances in Toy Learning",
        "url": "https://example.org/papers/lamps.pdf",
        "doi": None,
        "arxiv_id": None,
    }


@pytest.mark.parametrize(
    ("text", "title", "year"),
    [
        ("Cy Quill. Drift without tears, 2021a. URL https://example.org/x.", "Drift without tears", 2021),
        ("Cy Quill. Drift, briefly, May 2015. URL https://example.org/x.", "Drift, briefly", 2015),
        ("Cy Quill. Drift notes, pp. 3-9. Lamp Press, 1986.", "Drift notes", 1986),
        ("Cy Quill. Do lamps drift? In Proceedings of Light, 2019.", "Do lamps drift?", 2019),
        ("Cy Quill. Lamps vs. wicks: a study. Journal of Light, 2019.", "Lamps vs. wicks: a study", 2019),
        ('Cy Quill. The "on" lamp is not "off". In Light Workshop, 2018.', 'The "on" lamp is not "off"', 2018),
        ("Cy Quill. Are wicks needed? surprising answers. In Light Workshop, 2018.",
         "Are wicks needed? surprising answers", 2018),
        ("Cy Quill. Drift. Light Monographs. Lamp Press, 2009.", "Drift", 2009),
        ("Cy Quill. Lamp talk. https: //example.org/talk.html, 2023.", "Lamp talk", 2023),
        ("Cy Quill. Drift in {cnn} lamps. arXiv preprint, 2020.", "Drift in {cnn} lamps", 2020),
    ],
)  # fmt: skip
def test_title_ends_at_the_venue_date_page_range_or_url(text, title, year):
    fields = parse_raw_reference(text)

    assert (fields.authors, fields.title, fields.year) == (["Cy Quill"], title, year)


def test_initials_do_not_end_the_author_list():
    fields = parse_raw_reference("P. Q. Smolensky and R.-S. T.U. Vance. Lamps. Lamp Press, 1986.")

    assert (fields.authors, fields.title) == (["P. Q. Smolensky", "R.-S. T.U. Vance"], "Lamps")


@pytest.mark.parametrize(
    ("text", "arxiv_id", "doi"),
    [
        ("Jo Kim. Lamps, 2021. URL https://arxiv.org/abs/2105. 01234.", "2105.01234", None),
        ("Jo Kim. Lamps, 2021. URL https://arxiv. org/pdf/2105.01234.", "2105.01234", None),
        ("Jo Kim. Lamps. In Light, 2017. arXiv:1707.04321.", "1707.04321", None),
        ("Jo Kim. Lamps. Preprint, 2022. doi: 10.48550/arXiv.2203.04567.", "2203.04567", "10.48550/arXiv.2203.04567"),
        ("Jo Kim. Lamps. URL https://arxiv.org/abs/lamp-th/9901001.", "lamp-th/9901001", None),
        ("Jo Kim. Lamps. Light, 12(3):1-9, 2019. doi: 10.1234/jd.12.3.", None, "10.1234/jd.12.3"),
    ],
)
def test_arxiv_ids_and_dois_are_read_from_urls_labels_and_dois(text, arxiv_id, doi):
    fields = parse_raw_reference(text)

    assert (fields.arxiv_id, fields.doi) == (arxiv_id, doi)


def test_years_in_page_ranges_isbns_and_urls_are_ignored():
    fields = parse_raw_reference(
        "Jo Kim. Lamps. Light, pp. 1950-1999, Cham, 2012. ISBN 978-3-2019-0. URL https://example.org/2020/x.pdf."
    )

    assert fields.year == 2012


def test_link_labels_are_split_off_the_end():
    assert strip_link_labels("Jo Kim. Lamps. doi: 10.1/x. · DOI · Paper page") == (
        "Jo Kim. Lamps. doi: 10.1/x.",
        ["DOI", "Paper page"],
    )
    assert strip_link_labels("Jo Kim. Lamps · and wicks, 2020.") == ("Jo Kim. Lamps · and wicks, 2020.", [])


def test_continuation_lines_join_and_an_orphan_tail_is_kept_as_its_own_entry():
    entries = parse_raw_references(
        [
            (10, "Jo Kim. Lamps. In Advances in Light, volume 3, pp. 1-2."),
            (11, "Curran Associates, Inc., 2020. URL https://example.org/lamps.pdf."),
            (12, "In G. Hale (ed.), Proceedings of Light, pp. 5-6."),
            (13, "Curran Associates, Inc., 2018b. URL https://example.org/wicks.pdf. · DOI"),
        ]
    )

    assert [(e.line, e.continuation_lines, e.orphan_fragment, e.title, e.year, e.link_labels) for e in entries] == [
        (10, [11], False, "Lamps", 2020, []),
        (12, [13], True, None, 2018, ["DOI"]),
    ]
    assert entries[0].text == (
        "Jo Kim. Lamps. In Advances in Light, volume 3, pp. 1-2. "
        "Curran Associates, Inc., 2020. URL https://example.org/lamps.pdf."
    )
    assert entries[1].venue == "Proceedings of Light"


@pytest.mark.parametrize(
    ("title", "norm"),
    [
        ("Finding Neurons in a Haystack: Case Studies with Sparse Probing",
         "finding neurons in a haystack case studies with sparse probing"),
        ("Self-citationDon’t Trust: (Un)reliable Fine-Tuning—A Survey?Preprint",
         "dont trust unreliable fine tuning a survey"),
        ("What you can cram into a single $&!#* vector", "what you can cram into a single vector"),
        ("ＡＢＣ  Ⅻ", "abc xii"),
        ("STRASSE Straße", "strasse strasse"),
    ],
)  # fmt: skip
def test_title_norm_folds_case_and_width_drops_markers_and_punctuation(title, norm):
    assert title_norm(title) == norm


@pytest.mark.parametrize("code", range(128))
def test_title_norm_treats_each_ascii_character_as_the_unicode_rule_does(code):
    # ASCII titles take a translate table; a non-ASCII letter sends the same text through
    # the per-character rule, which must agree apart from that letter.
    char = chr(code)
    expected = "" if char in "'`()[]{}" else " " if unicodedata.category(char)[0] in "PSZC" else char.lower()
    assert title_norm(f"ab{char}cd") == " ".join(f"ab{expected}cd".split())
    assert title_norm(f"ab{char}cdé") == " ".join(f"ab{expected}cdé".split())


# ---------------------------------------------------------------- seed page


def test_seed_157_raw_lines_join_into_146_entries(raw):
    lines = seed_lines(PAGE_004)

    assert len(raw) == 146
    assert sum(1 + len(entry.continuation_lines) for entry in raw) == 157
    assert [(e.line, e.continuation_lines) for e in raw if e.continuation_lines] == [
        (1618, [1619]),
        (1621, [1622]),
        (1627, [1628]),
        (1643, [1644]),
        (1648, [1649]),
        (1667, [1668]),
        (1679, [1680]),
        (1716, [1717]),
        (1749, [1750]),
        (1753, [1754]),
        (1767, [1768]),
    ]
    assert [e.line for e in raw if e.orphan_fragment] == [1767]
    for entry in raw:
        printed = [lines[number - 1][2:] for number in [entry.line, *entry.continuation_lines]]
        labels = "".join(" · " + label for label in entry.link_labels)
        assert " ".join(printed) == entry.text + labels


def test_seed_link_labels_and_dois(raw):
    assert [(e.line, e.link_labels) for e in raw if e.link_labels] == [
        (1626, ["DOI"]),
        (1678, ["DOI"]),
        (1687, ["DOI"]),
        (1723, ["DOI", "Paper page"]),
        (1740, ["arXiv"]),
    ]
    assert [(e.line, e.doi) for e in raw if e.doi] == [
        (1626, "10.1162/coli_a_00422"),
        (1678, "10.1109/CVPR.2016"),
        (1687, "10.18653/v1/N19-1357"),
        (1723, "10.23915/distill.00007"),
    ]


def test_seed_arxiv_ids_come_from_urls_including_ones_broken_by_spaces(raw):
    assert [(e.line, e.arxiv_id) for e in raw if e.arxiv_id] == [
        (1620, "2402.04614"),
        (1660, "2406.04093"),
        (1699, "2309.08133"),
        (1703, "2402.08787"),
        (1704, "2404.19756"),
        (1708, "1312.5663"),
        (1721, "1602.03616"),
        (1722, "1602.03616"),
        (1736, "2305.03452"),
        (1740, "1312.6034"),
        (1752, "2406.07358"),
        (1772, "2307.15043"),
    ]


def test_seed_every_entry_but_the_orphan_yields_a_title_and_authors(raw):
    assert [e.line for e in raw if e.title is None] == [1767]
    assert [e.line for e in raw if not e.authors] == [1767]
    assert sum(e.year is not None for e in raw) == 143


@pytest.mark.parametrize(
    "title",
    [
        # MODEL.md: works the graph must match across documents by normalised title.
        "Understanding intermediate layers using linear classifier probes",
        "Finding Neurons in a Haystack: Case Studies with Sparse Probing",
    ],
)
def test_seed_raw_titles_match_model_md_works_by_normalised_title(raw, title):
    matches = [e for e in raw if e.title and title_norm(e.title) == title_norm(title)]

    assert len(matches) == 1
    # Neither raw entry prints an arXiv id (both link OpenReview), so none is invented.
    assert matches[0].arxiv_id is None


def test_seed_pdf_debris_is_repaired_in_titles_but_kept_in_the_text(raw):
    by_line = {entry.line: entry for entry in raw}

    assert "concep- tual" in by_line[1616].text
    assert "conceptual" in by_line[1616].title
    assert by_line[1625].url.startswith("https://proceedings.")
    assert " " not in by_line[1620].url
