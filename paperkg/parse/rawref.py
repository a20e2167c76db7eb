"""Printed-but-unlinked reference strings → best-effort structured records (FORMAT.md B.8).

The strings are PDF extractions in the usual bibliography style
`<Authors>. <Title>. <Venue>, <year>. URL <url>.` with extraction debris (`concep- tual`,
`https: //`, `arxiv.org/abs/2402. 04614`). The text is kept verbatim; the fields pulled out of it
are repaired where the debris is unambiguous, because the graph matches works by normalised title.
Every scan here is linear in the length of the string.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from typing import Any, NamedTuple

from paperkg.parse.models import RawFields, RawReference, built_all

# A page break inside an entry leaves the publisher imprint on a line of its own (B.8):
# `Curran Associates, Inc., 2020. URL …` continues the line before.
_CONTINUATION = re.compile(r"[^.,]{1,80}, Inc\., [0-9]{4}[a-z]?\.")
# An entry that starts at its venue clause: the tail of an entry whose head is missing.
_ORPHAN_START = "In "
_LINK_SEPARATOR = " · "
_LINK_LABEL = re.compile(r"[A-Za-z][A-Za-z ]{0,19}")

_URL_START = re.compile(r"https?: ?//")
# Characters after which a URL broken by a space continues with the next chunk.
_URL_CONTINUES_AFTER = frozenset("/?=_-")
_TRAILING_PUNCTUATION = ".,;:)\"'”"
_ARXIV_URL = re.compile(r"arxiv\.org/(?:abs|pdf)/([0-9]{4}\.[0-9]{4,5}|[a-z-]{2,20}(?:\.[A-Z]{2})?/[0-9]{7})")
_ARXIV_LABEL = re.compile(r"arXiv: ?([0-9]{4}\.[0-9]{4,5})", re.IGNORECASE)
_ARXIV_DOI = re.compile(r"10\.48550/arxiv\.([0-9]{4}\.[0-9]{4,5})", re.IGNORECASE)
_LABELLED_DOI = re.compile(r"doi: ?(10\.[0-9]{4,9}/[^\s\"]+)", re.IGNORECASE)
# The leading lookaheads repeat what the match must start with, so the search skips ahead to
# those characters instead of testing the lookbehind at every position.
_ANY_DOI = re.compile(r"(?=10\.)(?<![0-9A-Za-z])(10\.[0-9]{4,9}/[^\s\"]+)")
_YEAR = re.compile(r"(?=[12])(?<![0-9-])(1[89][0-9]{2}|20[0-9]{2})[a-z]?(?![0-9-])")
_DOI_START = "10."  # every DOI pattern above needs it

# Where a title ends: a sentence end before something capitalised (or a URL / arXiv note) …
_SENTENCE_END = re.compile(r"([.?!]) (?=[A-Z0-9\"“'(\[]|http|arXiv)")
# … or the date / page range of a report-style entry (`Title, 2024. URL`, `Title, May 2015.`, `Title, pp. 1-2`).
_MONTH = r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]{0,6}\.? "
_DATE_OR_PAGES = re.compile(rf", (?:(?:{_MONTH})?(?:1[89]|20)[0-9]{{2}}[a-z]?(?:[.,]|$)|pp\. )")
# Where a venue ends.
_VENUE_END = re.compile(r", (?:[0-9]|vol|pp\. )|\. (?=[A-Z])| URL ")
_EDITORS = re.compile(r"\(eds?\.\), ")
_ABBREVIATIONS = frozenset(
    {"vs", "e.g", "i.e", "cf", "etc", "al", "no", "vol", "inc", "jr", "st", "dr", "fig", "pp", "eds", "ed", "p"}
)
# `concep- tual` → `conceptual`: a hyphen and space between lowercase letters is a line-break hyphen.
_LINE_BREAK_HYPHEN = re.compile(r"(?<=[a-z])- (?=[a-z])")
# Link labels left between two glued entries (`… URL https://doi.org/…. · DOI Next Author, …`).
_GLUED_LINK_LABELS = re.compile(r"^(?:· (?:DOI|Paper page|arXiv) )+")
_NAME_PARTICLES = frozenset({"and", "&", "et", "al.", "van", "von", "de", "der", "den", "la", "le", "du", "da", "di"})
# Clauses that still belong to the entry after the sentence holding its year.
_ENTRY_CLAUSES = ("URL ", "doi:", "doi ", "DOI", "arXiv", "http", "In ", "pp.", "ISBN", "Accessed", "Available")


class _Line(NamedTuple):
    number: int
    text: str  # without the `- ` prefix


def strip_link_labels(text: str) -> tuple[str, list[str]]:
    """`… · DOI · Paper page` → the text and ["DOI", "Paper page"]."""
    labels: list[str] = []
    end = len(text)
    while (separator := text.rfind(_LINK_SEPARATOR, 0, end)) >= 0:
        label = text[separator + len(_LINK_SEPARATOR) : end]
        if not _LINK_LABEL.fullmatch(label):
            break
        labels.append(label)
        end = separator
    return text[:end], labels[::-1]


# Pure, and called for every author token; the same few initials recur all through a page.
@lru_cache(maxsize=1 << 14)
def _is_initial(word: str) -> bool:
    """`A`, `J.K`, `Y.-W` — given-name initials, after which a `.` does not end the author list."""
    letters = [char for char in word if char not in ".-"]
    return 0 < len(letters) <= 3 and all(char.isupper() for char in letters) and (len(letters) == 1 or "." in word)


def _authors_end(text: str) -> int | None:
    """Index of the `.` that ends the author list: the first `. ` not after an initial."""
    position = text.find(". ")
    while position >= 0:
        word = text[text.rfind(" ", 0, position) + 1 : position]
        if not _is_initial(word):
            return position
        position = text.find(". ", position + 2)
    return None


def _split_author_names(text: str) -> list[str]:
    names = text.replace(", and ", ", ").replace(" and ", ", ").split(", ")
    return [name.strip() for name in names if name.strip()]


def _title_end(text: str) -> tuple[int, int, bool]:
    """(end of the title, start of what follows, whether a venue follows) in `text` after the authors."""
    for match in _SENTENCE_END.finditer(text):
        position = match.start()
        mark = match[1]
        if mark == "." and text[text.rfind(" ", 0, position) + 1 : position].lower() in _ABBREVIATIONS:
            continue
        date_or_pages = _DATE_OR_PAGES.search(text, 0, match.end())
        if date_or_pages:
            return date_or_pages.start(), date_or_pages.end(), False
        return (position + 1 if mark in "?!" else position), match.end(), True
    date_or_pages = _DATE_OR_PAGES.search(text)
    if date_or_pages:
        return date_or_pages.start(), date_or_pages.end(), False
    return len(text.rstrip(".")), len(text), False


def _venue(text: str) -> str | None:
    if text.startswith(_ORPHAN_START):
        text = text[len(_ORPHAN_START) :]
    if editors := _EDITORS.search(text):
        text = text[editors.end() :]
    if end := _VENUE_END.search(text):
        text = text[: end.start()]
    venue = _LINE_BREAK_HYPHEN.sub("", text.strip().rstrip("."))
    return venue if venue and not venue.startswith("http") else None


class _Url(NamedTuple):
    start: int
    end: int
    url: str  # with extraction spaces removed


def _urls(text: str) -> list[_Url]:
    """Every URL, with extraction spaces removed (`https: //a. b/c/ d` → `https://a.b/c/d`)."""
    urls = []
    position = 0
    while start := _URL_START.search(text, position):
        position = start.end()
        chunks = [start[0].replace(" ", "")]
        while True:
            end = text.find(" ", position)
            if end < 0:
                end = len(text)
            chunk = text[position:end]
            chunks.append(chunk)
            position = end
            following = text[end + 1 : end + 2]
            if not chunk or not following:
                break
            continues = chunk[-1] in _URL_CONTINUES_AFTER and following.isalnum()
            continues = continues or (chunk[-1] == "." and (following.islower() or following.isdigit()))
            if not continues:
                break
            position = end + 1
        url = "".join(chunks).rstrip(_TRAILING_PUNCTUATION)
        if len(url) > len(start[0]):
            urls.append(_Url(start.start(), position, url))
    return urls


def _arxiv_id(text: str, urls: list[_Url]) -> str | None:
    for url in urls:
        if match := _ARXIV_URL.search(url.url):
            return match[1]
    for pattern in (_ARXIV_LABEL, _ARXIV_DOI):
        if match := pattern.search(text):
            return match[1]
    return None


def _doi(text: str) -> str | None:
    if _DOI_START not in text:
        return None
    match = _LABELLED_DOI.search(text) or _ANY_DOI.search(text)
    return match[1].rstrip(_TRAILING_PUNCTUATION) if match else None


def _year(text: str, urls: list[_Url]) -> int | None:
    """The last year outside URLs; hyphens rule out page ranges and ISBNs."""
    last = None
    spans = iter(urls)
    span = next(spans, None)
    for match in _YEAR.finditer(text):
        while span is not None and span.end <= match.start():
            span = next(spans, None)
        if span is None or match.end() <= span.start:
            last = match
    return int(last[1]) if last else None


def _sentence_ends(text: str, start: int, urls: list[_Url]) -> Iterator[int]:
    """Positions of `. ` from `start` on that are not inside a URL."""
    position = text.find(". ", start)
    while position >= 0:
        word = text[text.rfind(" ", 0, position) + 1 : position].lower()
        # A URL's span ends at the space after it, so the `.` closing the sentence is its last character.
        if word not in _ABBREVIATIONS and not any(url.start <= position < url.end - 1 for url in urls):
            yield position
        position = text.find(". ", position + 2)


def _own_part(text: str, after_title: int, urls: list[_Url]) -> str:
    """The first entry of a line that may hold several (B.8: references glued on one line).

    An entry ends with the sentence that holds its year, and the `doi:` and `URL` clauses after
    it. When what follows reads as an entry of its own (an author list, then a year), it is
    another reference, and its identifiers are not this one's.
    """
    year = next(
        (m for m in _YEAR.finditer(text, after_title) if not any(url.start <= m.start() < url.end for url in urls)),
        None,
    )
    if year is None:
        return text
    for end in _sentence_ends(text, year.end(), urls):
        following = _GLUED_LINK_LABELS.sub("", text[end + 2 :])
        if following.startswith(_ENTRY_CLAUSES):
            continue
        authors_end = _authors_end(following)
        if authors_end is not None and _names(following[:authors_end]) and _YEAR.search(following, authors_end):
            return text[: end + 1]
        return text
    return text


def _names(text: str) -> bool:
    """Whether text reads as an author list: capitalised names joined by commas and `and`."""
    words = text.replace(",", " ").split()
    return 0 < len(words) <= 60 and all(word[0].isupper() or word in _NAME_PARTICLES for word in words)


def parse_raw_reference(text: str, *, orphan_fragment: bool = False) -> RawFields:
    return RawFields.model_validate(_raw_fields(text, orphan_fragment))


def _raw_fields(text: str, orphan_fragment: bool) -> dict[str, Any]:
    """The fields of RawFields, in its order."""
    urls = _urls(text)
    authors: list[str] = []
    title = venue = None
    own = text
    if not orphan_fragment and (authors_end := _authors_end(text)) is not None:
        authors = _split_author_names(text[:authors_end])
        rest = text[authors_end + 2 :]
        end, follow, venue_follows = _title_end(rest)
        title = _LINE_BREAK_HYPHEN.sub("", rest[:end].strip()) or None
        venue = _venue(rest[follow:]) if venue_follows else None
        own = _own_part(text, authors_end + 2 + end, urls)
        urls = [url for url in urls if url.start < len(own)]
    elif orphan_fragment:
        venue = _venue(text)
    return {
        "authors": authors,
        "title": title,
        "year": _year(own, urls),
        "venue": venue,
        "url": urls[0].url if urls else None,
        "doi": _doi(own),
        "arxiv_id": _arxiv_id(own, urls),
    }


def parse_raw_references(lines: list[tuple[int, str]]) -> list[RawReference]:
    """`- ` lines (number, text without the prefix) → entries, joining continuation lines (B.8)."""
    entries: list[tuple[list[_Line], list[str]]] = []
    for number, text in lines:
        body, labels = strip_link_labels(text)
        if entries and _CONTINUATION.match(body):
            entries[-1][0].append(_Line(number, body))
            entries[-1][1].extend(labels)
        else:
            entries.append(([_Line(number, body)], labels))
    references = []
    for parts, labels in entries:
        text = " ".join(part.text for part in parts)
        orphan = text.startswith(_ORPHAN_START) or bool(_CONTINUATION.match(text))
        fields = _raw_fields(text, orphan)  # RawReference's own fields follow those of RawFields
        fields.update(
            text=text,
            link_labels=labels,
            orphan_fragment=orphan,
            line=parts[0].number,
            continuation_lines=[part.number for part in parts[1:]],
        )
        references.append(fields)
    return built_all(RawReference, references)
