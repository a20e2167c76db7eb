"""What the parser rejects (FORMAT.md C), and that it only ever rejects with a ParseError."""

from __future__ import annotations

import pickle
import random

import pytest

from paperkg.parse import Card, Page, ParseError, parse_bytes, parse_file

from seeds import fixture_bytes, fixture_lines, fixture_with, join_lines

CARD = "card_full.txt"
PAGE = "page_full.txt"
FOOTER_LINE = 132  # page_full.txt's `… ›` line; everything before it is required


def _rejection(data: bytes, **options) -> tuple[int | None, str]:
    with pytest.raises(ParseError) as caught:
        parse_bytes(data, "doc.txt", **options)
    error = caught.value
    assert str(error) == (f"doc.txt:{error.line}: {error.reason}" if error.line else f"doc.txt: {error.reason}")
    assert "\n" not in str(error)
    return error.line, error.reason


# ---------------------------------------------------------------- bytes and text


def test_parse_error_carries_path_line_and_reason_and_survives_pickling():
    error = ParseError("a/b.txt", 7, "bad\nthing")

    assert (error.path, error.line, error.reason, str(error)) == ("a/b.txt", 7, "bad thing", "a/b.txt:7: bad thing")
    assert str(pickle.loads(pickle.dumps(error))) == "a/b.txt:7: bad thing"
    assert str(ParseError("a/b.txt", None, "too big")) == "a/b.txt: too big"


@pytest.mark.parametrize(
    ("data", "line", "reason"),
    [
        (b"# T\n\nok\n\xff bad", 4, "invalid UTF-8 (byte 0xff)"),
        (b"# T\r\nok\r\xc3\x28", 3, "invalid UTF-8 (byte 0xc3)"),
        (b"# T\n\x00", 2, "NUL byte: binary data, not a text document"),
        (b"a\r\nb\rc\n\x00", 4, "NUL byte: binary data, not a text document"),
        (b"# T\n\n\x07", 3, "control character U+0007: binary data, not a text document"),
        (b"# T\x0cpage", 1, "control character U+000C: binary data, not a text document"),
        (b"\x89PNG\r\n\x1a\n", 1, "invalid UTF-8 (byte 0x89)"),
        (b"PNG\r\n\x1a\n", 2, "control character U+001A: binary data, not a text document"),
        (b"", None, "empty document"),
        (b" \t\r\n\n", None, "empty document"),
        (b"\xef\xbb\xbf", None, "empty document"),
    ],
    ids=["utf8", "utf8-cr", "nul", "nul-mixed-breaks", "bel", "form-feed", "png", "sub", "empty", "blank", "bom-only"],
)
def test_text_that_is_not_a_utf8_document_is_rejected_at_its_line(data, line, reason):
    assert _rejection(data) == (line, reason)


def test_random_binary_is_rejected():
    data = random.Random(3).randbytes(4096)

    line, _ = _rejection(data)

    assert line is not None


def test_document_over_the_size_limit_is_rejected_before_decoding():
    assert _rejection(b"\xff" * 11, max_bytes=10) == (None, "document is 11 bytes, over the limit of 10 bytes")


def test_parse_file_rejects_an_oversized_or_unreadable_file(tmp_path):
    big = tmp_path / "big.txt"
    big.write_bytes(fixture_bytes(CARD))

    with pytest.raises(ParseError) as too_big:
        parse_file(big, max_bytes=100)
    with pytest.raises(ParseError) as missing:
        parse_file(tmp_path / "missing.txt")

    assert (too_big.value.line, too_big.value.reason) == (None, "document is 101 bytes, over the limit of 100 bytes")
    assert (missing.value.path, missing.value.line) == (str(tmp_path / "missing.txt"), None)
    assert missing.value.reason.startswith("cannot read the file")


def test_unknown_first_line_is_rejected():
    line, reason = _rejection(b"Title without a hash\n\nText.")

    assert (line, reason.split(":")[0]) == (1, "unknown document kind")


def test_page_header_with_a_non_number_is_an_unknown_kind():
    data = fixture_with(PAGE, L1=fixture_lines(PAGE)[0].replace("4 of the 11 sources", "four of the 11 sources"))

    assert _rejection(data)[0] == 1


# ---------------------------------------------------------------- cards


@pytest.mark.parametrize(
    ("replacements", "line", "reason"),
    [
        ({"L3": None, "L4": None}, 2, "missing the 'arXiv: … · HTML: …' line after the title"),
        ({"L3": "arXiv: 2104.08197"}, 3, "expected the 'arXiv: … · HTML: …' line, found 'arXiv: 2104.08197'"),
        ({"L4": "Stray text"}, 4, "unexpected line before the first '##' heading: 'Stray text'"),
        ({"L11": "## Related work"}, 11, "unknown '##' heading: 'Related work'"),
        ({"L11": "## Builds on (most cited first)"}, 11, "malformed list heading: 'Builds on (most cited first)'"),
        ({"L13": "- Wick Theory (1999)"}, 13, "malformed list item: '- Wick Theory (1999)'"),
        ({"L13": "- [Wick](https://example.org/abs/1/) (1999)"}, 13, "list item link is not a …/paper/<id>/ address"),
        ({"L14": None}, 11, "'## Builds on' says 2 shown but 1 items follow"),
        ({"L7": "- Cited by many papers."}, 7, "unrecognised key fact: 'Cited by many papers.'"),
        ({"L9": "- First posted on arXiv 31 Feb 2001."}, 9, "not a date: '31 Feb 2001'"),
        ({"L16": "## Key facts"}, 16, "'## Key facts' repeated or out of order"),
        ({"L12": "# Second title"}, 12, "a second '# ' title line"),
        ({"L24": None}, 22, "'## Abstract' has no text"),
        ({"L22": None, "L23": None, "L24": None}, 20, "missing '## Abstract' (card cut short?)"),
    ],
)
def test_malformed_card_is_rejected_at_the_offending_line(replacements, line, reason):
    got_line, got_reason = _rejection(fixture_with(CARD, **replacements))

    assert (got_line, got_reason[: len(reason)]) == (line, reason)


def test_card_cut_after_any_line_is_rejected():
    lines = fixture_lines(CARD)

    for keep in range(1, len(lines)):
        with pytest.raises(ParseError):
            parse_bytes(join_lines(lines[:keep]), "cut.txt")


# ---------------------------------------------------------------- pages


def test_page_cut_before_its_footer_line_is_rejected_and_cut_after_it_is_not():
    lines = fixture_lines(PAGE)

    for keep in range(1, FOOTER_LINE):
        with pytest.raises(ParseError):
            parse_bytes(join_lines(lines[:keep]), "cut.txt")
    assert isinstance(parse_bytes(join_lines(lines[:FOOTER_LINE]), "cut.txt"), Page)


@pytest.mark.parametrize(
    ("keep", "reason"),
    [
        (4, "missing 'Overview' (page cut short?)"),
        (23, "missing 'Claims the paper makes' (page cut short?)"),
        (24, "page ends where the claims summary line should be (cut short?)"),
        (77, "page ends inside the claims: missing 'Citations'"),
        (78, "missing 'Cites' (page cut short?)"),
        (97, "missing 'Cited by' (page cut short?)"),
        (102, "missing 'Metadata' (page cut short?)"),
        (126, "missing 'About these checks' (page cut short?)"),
        (131, "missing the footer links line ('… ›') (page cut short?)"),
    ],
)
def test_page_cut_short_names_the_missing_anchor_at_the_last_line(keep, reason):
    assert _rejection(join_lines(fixture_lines(PAGE)[:keep])) == (keep, reason)


@pytest.mark.parametrize(
    ("replacements", "line", "reason"),
    [
        ({"L3": "Open accessSummary"}, 3, "expected 'Abstract' or 'Overview', found 'Open accessSummary'"),
        ({"L12": "Stray line"}, 12, "unexpected line in the AI snapshot: 'Stray line'"),
        ({"L16": "- Guessed: toy models"}, 16, "limitation is not 'Stated: …' or 'Evident: …'"),
        ({"L25": "4 of 11 cited sources checked"}, 25, "malformed claims summary line: '4 of 11 cited"),
        ({"L33": ""}, 33, "blank line where the next claim element should be"),
        ({"L33": "Just some prose."}, 33, "unrecognised line in the claims: 'Just some prose.'"),
        (
            {"L28": "Quote in the paperNot a substantial claim"},
            28,
            "expected a quote in the claim at line 26, found a status line",
        ),
        ({"L55": "“Another quote.”"}, 55, "expected a status line in the claim at line 52, found a quote"),
        ({"L55": "Quote in the paperMaybe"}, 55, "status line without 'Substantial claim' or 'Not a substantial"),
        (
            {"L55": "Quote in the paperNot a substantial claim1 of 1 sources checkedbanana"},
            55,
            "unrecognised text glued to the status line: 'banana'",
        ),
        (
            {"L42": "Nope. (LLM, conf=0.50)"},
            42,
            "expected 'Couldn’t be matched …' after the unmatched source at line 41, found a verdict paragraph",
        ),
        (
            {"L36": "Couldn’t be matched to a paper in Crossref, so it can’t be checked.\n- Premisecitation§ 4"},
            36,
            "'Couldn’t be matched …' after a matched source",
        ),
        (
            {"L34": "- cites Stone et al. (2022) source"},
            34,
            "expected 'Experimental — …' after the verdict at line 33, found a '- cites' line",
        ),
        ({"L36": "Experimental — accuracy not yet measured"}, 36, "'Experimental' line out of place"),
        ({"L59": None}, 59, "a flagged claim without flag sentences"),
        ({"L59": "The paper’s conclusions may not depend on it."}, 59, "flag reasons without a flag kind"),
        (
            {"L59": "The paper’s conclusions may not depend on it. Probably not a substantial claim."},
            59,
            "flag sentence repeated or out of order: 'Probably not a substantial claim.'",
        ),
        ({"L68": "Interpretationreasoning§ setup in lowercase"}, 68, "cannot tell the section from the claim text"),
        ({"L72": "- Premisecitation§ 1 Introduction"}, 72, "claim header out of place"),
        ({"L82": "Not an author line"}, 81, 'title line without an author line in Cites: \'Self-citation"Lamps"'),
        ({"L89": "Research works printed but not linked: many"}, 89, "not a count: 'many'"),
        ({"L92": "Cy Quill. Drift without tears, 2021."}, 92, "raw reference lines start with '- '"),
        ({"L101": "Wren, K. (2023) · Cited by twelve"}, 100, "title line without an author line in Cited by"),
        ({"L104": "- Orr"}, 104, "metadata value before any key: 'Orr'"),
        ({"L105": "Orr"}, 105, "metadata lines start with '- ': 'Orr'"),
    ],
)
def test_page_element_out_of_place_is_rejected_at_its_line(replacements, line, reason):
    got_line, got_reason = _rejection(fixture_with(PAGE, **replacements))

    assert (got_line, got_reason[: len(reason)]) == (line, reason)


# ---------------------------------------------------------------- robustness


def _mutations(rng: random.Random, data: bytes) -> bytes:
    lines = data.split(b"\n")
    choice = rng.randrange(5)
    if choice == 0:
        flipped = bytearray(data)
        for _ in range(rng.randint(1, 4)):
            flipped[rng.randrange(len(flipped))] = rng.randrange(256)
        return bytes(flipped)
    if choice == 1:
        return data[: rng.randrange(len(data))]
    if choice == 2:
        del lines[rng.randrange(len(lines))]
    elif choice == 3:
        lines.insert(rng.randrange(len(lines)), lines[rng.randrange(len(lines))])
    else:
        first, second = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[first], lines[second] = lines[second], lines[first]
    return b"\n".join(lines)


@pytest.mark.parametrize("name", [CARD, PAGE, "card_minimal.txt"])
def test_mutated_documents_parse_or_raise_parse_error_only(name):
    rng = random.Random(name)
    original = fixture_bytes(name)

    for _ in range(300):
        try:
            document = parse_bytes(_mutations(rng, original), name)
        except ParseError:
            continue
        assert isinstance(document, Card | Page)


@pytest.mark.parametrize("line", [1, 2, 13, 26, 29, 32, 33, 60, 82, 92, 105, 129, 133])
def test_megabyte_line_parses_or_raises_parse_error_only(line):
    lines = fixture_lines(PAGE)
    text = lines[line - 1]
    lines[line - 1] = (text + " ") * (1_000_000 // (len(text) + 1))

    try:
        parse_bytes(join_lines(lines), PAGE)
    except ParseError:
        pass
