"""Structured work entries of a page's `Cites` and `Cited by` lists (FORMAT.md B.7).

An entry is an optional title line followed by the author line
`<authors> (<yyyy>) · <venue> · doi:<doi> · Cited by <n>`; the author line is recognised by its
` · Cited by <n>` ending, so any other line is a title and must be followed by an author line.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any, NamedTuple

from paperkg.parse.errors import ParseError, excerpt
from paperkg.parse.models import Reference, built_all
from paperkg.parse.normalise import PREPRINT, SELF_CITATION
from paperkg.parse.values import parse_count

_CITED_BY = " · Cited by "
_DOI = " · doi:"
_SEPARATOR = " · "
_YEAR = re.compile(r"\(([0-9]{4})\)(?= · |$)")
_ET_AL = "et al."


class _AuthorLine(NamedTuple):
    self_citation: bool
    body: str  # everything before ` · Cited by `
    cited_by: int


def _author_line(text: str) -> _AuthorLine | None:
    self_citation = text.startswith(SELF_CITATION)
    body = text[len(SELF_CITATION) :] if self_citation else text
    head, separator, count = body.rpartition(_CITED_BY)
    cited_by = parse_count(count) if separator else None
    return None if cited_by is None else _AuthorLine(self_citation, head, cited_by)


# Pure, and called for every author token; the same few initials recur all through a page.
@lru_cache(maxsize=1 << 14)
def _is_initials(token: str) -> bool:
    """`A.`, `G. E.`, `M.-W.`, `D. ".` — the given-name part of a "Surname, Initials" author."""
    if "." not in token:
        return False
    letters = 0
    for word in token.split(" "):
        core = word.replace(".", "").replace("-", "").replace('"', "").replace("'", "")
        if len(core) > 2 or not all(char.isupper() for char in core):
            return False
        letters += len(core)
    return letters > 0


def split_authors(text: str) -> tuple[list[str], bool]:
    """`Krizhevsky, A., Sutskever, I., & Hinton, G. E.` → ["Krizhevsky, A.", …], and whether `et al.` ends it.

    A token that is not followed by initials stands alone, which keeps organisations
    (`Gemini Team`) whole.
    """
    tokens = [token.strip() for token in text.split(", ")]
    tokens = [token[2:] if token.startswith("& ") else token for token in tokens if token]
    et_al = bool(tokens) and tokens[-1] == _ET_AL
    if et_al:
        tokens.pop()
    authors: list[str] = []
    for token in tokens:
        if authors and "," not in authors[-1] and _is_initials(token) and not _is_initials(authors[-1]):
            authors[-1] = f"{authors[-1]}, {token}"
        else:
            authors.append(token)
    return authors, et_al


def _reference(title_text: str | None, author: _AuthorLine, line: int) -> dict[str, Any]:
    """The fields of a Reference, in its order."""
    body, self_citation = author.body, author.self_citation
    doi = None
    if (cut := body.rfind(_DOI)) >= 0:
        doi, body = body[cut + len(_DOI) :].strip() or None, body[:cut]
    year_match = _YEAR.search(body)
    if year_match:
        authors_text = body[: year_match.start()].strip()
        venue = body[year_match.end() + len(_SEPARATOR) :].strip() or None
        year = int(year_match[1])
    else:
        authors_text, _, venue = (part.strip() for part in body.partition(_SEPARATOR))
        venue, year = venue or None, None
    title = preprint = None
    if title_text is not None:
        if title_text.startswith(SELF_CITATION):
            self_citation, title_text = True, title_text[len(SELF_CITATION) :]
        preprint = title_text.endswith(PREPRINT)
        title = (title_text[: -len(PREPRINT)] if preprint else title_text).strip() or None
    authors, et_al = split_authors(authors_text)
    return {
        "title": title,
        "authors": authors,
        "authors_text": authors_text,
        "et_al": et_al,
        "year": year,
        "venue": venue,
        "doi": doi,
        "cited_by_count": author.cited_by,
        "self_citation": self_citation,
        "preprint": bool(preprint),
        "line": line,
    }


def parse_reference_list(
    lines: list[str], start: int, is_end: Callable[[str], bool], path: str, what: str
) -> tuple[list[Reference], int]:
    """Entries from lines[start] up to the first line for which is_end is true; returns them and its index."""
    references: list[dict[str, Any]] = []
    index = start
    while index < len(lines) and not is_end(lines[index]):
        text = lines[index]
        if not text:
            raise ParseError(path, index + 1, f"blank line in {what}")
        if (author := _author_line(text)) is not None:
            references.append(_reference(None, author, index + 1))
            index += 1
            continue
        following = lines[index + 1] if index + 1 < len(lines) else ""
        author = _author_line(following)
        if author is None:
            raise ParseError(path, index + 1, f"title line without an author line in {what}: {excerpt(text)}")
        references.append(_reference(text, author, index + 1))
        index += 2
    return built_all(Reference, references), index
