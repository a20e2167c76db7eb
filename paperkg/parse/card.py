"""Paper cards (FORMAT.md A): a `# title`, the arXiv line, then `##` sections separated by blank lines."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from paperkg.parse.errors import ParseError, excerpt
from paperkg.parse.identifiers import normalise_arxiv_id
from paperkg.parse.models import Card, CardItem, CardList, TextMeta, built, built_all
from paperkg.parse.normalise import title_norm
from paperkg.parse.reconcile import reconcile_card
from paperkg.parse.values import parse_count, parse_day_month_year

_ARXIV_LINE = re.compile(r"arXiv: (https?://arxiv\.org/abs/(\S+)) · HTML: (https?://\S+)")
_CITED_BY = re.compile(r"Cited by ([0-9,]+) papers? in the map \(data through ([0-9]{1,2} [A-Za-z]+ [0-9]{4})\)\.")
_BUILDS_ON = re.compile(r"Builds on ([0-9,]+) of its ([0-9,]+) references? that (?:are|is) in the map\.")
_FIRST_POSTED = re.compile(r"First posted on arXiv ([0-9]{1,2} [A-Za-z]+ [0-9]{4})\.")
_LIST_HEADING = re.compile(r"(Builds on|Built on by) \(most cited first, ([0-9,]+) of ([0-9,]+)\)")
_ITEM_TAIL = re.compile(r"(https?://\S+)\) \(([0-9]{4})\)")
_PAPER_PATH = "/paper/"
# What normalise_arxiv_id accepts unchanged (ARXIV_NEW or ARXIV_OLD); anything else goes through it.
_PLAIN_ARXIV_ID_PATTERN = r"(?:\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?"
_PLAIN_ARXIV_ID = re.compile(_PLAIN_ARXIV_ID_PATTERN)
# The tail of an item whose link ends in a plain arXiv id: link, id, year. The address before
# `/paper/` is not empty and holds no `/` that starts `/paper/` (the second of `//` included), so
# the match takes the link's first `/paper/`, the one the general path reads the id after.
_USUAL_TAIL = re.compile(
    rf"(https?://(?!/?paper/)[^\s/]*+(?:/(?!paper/)[^\s/]*+)*+{_PAPER_PATH}({_PLAIN_ARXIV_ID_PATTERN})/)"
    r"\) \(([0-9]{4})\)"
)

# Sections in the order a card prints them; each may be missing except the abstract.
_ORDER = ("Key facts", "Builds on", "Built on by", "Abstract")
# Earlier item years are kept but warned about: no work in the map is that old (`(0000)`).
_FIRST_PLAUSIBLE_YEAR = 1800


class _Facts:
    def __init__(self) -> None:
        self.cited_by_count: int | None = None
        self.data_through = None
        self.builds_on_in_map: int | None = None
        self.reference_count: int | None = None
        self.first_posted = None


def _count(text: str, path: str, line: int) -> int:
    value = parse_count(text)
    if value is None:
        raise ParseError(path, line, f"not a count: {excerpt(text)}")
    return value


def _date(text: str, path: str, line: int):
    value = parse_day_month_year(text)
    if value is None:
        raise ParseError(path, line, f"not a date: {excerpt(text)}")
    return value


def _parse_fact(text: str, facts: _Facts, path: str, line: int) -> None:
    if m := _CITED_BY.fullmatch(text):
        facts.cited_by_count = _count(m[1], path, line)
        facts.data_through = _date(m[2], path, line)
    elif m := _BUILDS_ON.fullmatch(text):
        facts.builds_on_in_map = _count(m[1], path, line)
        facts.reference_count = _count(m[2], path, line)
    elif m := _FIRST_POSTED.fullmatch(text):
        facts.first_posted = _date(m[1], path, line)
    else:
        raise ParseError(path, line, f"unrecognised key fact: {excerpt(text)}")


def _parse_item(text: str, path: str, line: int) -> dict[str, Any]:
    """`- [<title>](https://…/paper/<id>/) (<yyyy>)`; the title runs to the last `](` (A).

    The fields of a CardItem, in its order."""
    split = text.rfind("](")
    if not text.startswith("- [") or split <= 3:
        raise ParseError(path, line, f"malformed list item: {excerpt(text)}")
    # The usual link, one match for what the steps below check one by one.
    usual = _USUAL_TAIL.fullmatch(text, split + 2)
    if usual is not None:
        url, arxiv_id, year = usual.groups()
        return {"title": text[3:split], "arxiv_id": arxiv_id, "year": int(year), "url": url, "line": line}
    tail = _ITEM_TAIL.fullmatch(text, split + 2)
    if tail is None:
        raise ParseError(path, line, f"malformed list item: {excerpt(text)}")
    url = tail[1]
    start = url.find(_PAPER_PATH)
    if start < 0 or not url.endswith("/") or start + len(_PAPER_PATH) >= len(url) - 1:
        raise ParseError(path, line, f"list item link is not a …/paper/<id>/ address: {excerpt(url)}")
    title, arxiv_id = text[3:split], url[start + len(_PAPER_PATH) : -1]
    if not _names_a_work(title, arxiv_id):
        raise ParseError(
            path,
            line,
            f"list item names no work: its link holds no arXiv id ({excerpt(arxiv_id)}) and its title no words",
        )
    return {"title": title, "arxiv_id": arxiv_id, "year": int(tail[2]), "url": url, "line": line}


def _names_a_work(title: str, arxiv_id: str) -> bool:
    """Whether a paper can be identified by what the card gives: its arXiv id or its title."""
    # An id as a card's links print it is already in the form normalise_arxiv_id accepts.
    if _PLAIN_ARXIV_ID.fullmatch(arxiv_id):
        return True
    return normalise_arxiv_id(arxiv_id) is not None or bool(title_norm(title))


def _year_warnings(lists: dict[str, CardList]) -> list[str]:
    latest = date.today().year + 1
    return [
        f"line {item.line}: item year {item.year:04d} is not a plausible publication year"
        for listed in lists.values()
        for item in listed.items
        if not _FIRST_PLAUSIBLE_YEAR <= item.year <= latest
    ]


def parse_card(lines: list[str], *, path: str, sha256: str, text_meta: TextMeta) -> Card:
    if not lines[0].startswith("# ") or not lines[0][2:].strip():
        raise ParseError(path, 1, "a card starts with '# <title>'")
    # Group the remaining non-blank lines under the heading (or preamble) they follow.
    blocks: list[tuple[str | None, int, list[tuple[int, str]]]] = [(None, 1, [])]
    block_lines = blocks[-1][2]
    for number, text in enumerate(lines[1:], start=2):
        if not text:
            continue
        # Most lines are list items: one test of the first character sends them to their block.
        if text[0] == "#":
            if text.startswith("## "):
                block_lines = []
                blocks.append((text[3:], number, block_lines))
                continue
            if text.startswith("# "):
                raise ParseError(path, number, "a second '# ' title line")
        block_lines.append((number, text))

    preamble = blocks[0][2]
    if not preamble:
        # Name the line where it should be, or the last line when the document ends at the title.
        raise ParseError(path, min(2, len(lines)), "missing the 'arXiv: … · HTML: …' line after the title")
    number, text = preamble[0]
    arxiv = _ARXIV_LINE.fullmatch(text)
    if arxiv is None:
        raise ParseError(path, number, f"expected the 'arXiv: … · HTML: …' line, found {excerpt(text)}")
    if not _names_a_work(lines[0][2:], arxiv[2]):
        raise ParseError(
            path,
            number,
            f"the card names no work: its arXiv link holds no arXiv id ({excerpt(arxiv[2])}) and its title no words",
        )
    if len(preamble) > 1:
        number, text = preamble[1]
        raise ParseError(path, number, f"unexpected line before the first '##' heading: {excerpt(text)}")

    facts = _Facts()
    lists: dict[str, CardList] = {}
    abstract: str | None = None
    position = -1
    for heading, heading_line, body in blocks[1:]:
        list_heading = _LIST_HEADING.fullmatch(heading)
        if list_heading:
            name = list_heading[1]
        elif heading == "Key facts":
            name = heading
        elif heading == "Abstract" or heading.startswith("Abstract ("):
            name = "Abstract"
        elif heading.startswith(("Builds on", "Built on by")):
            raise ParseError(path, heading_line, f"malformed list heading: {excerpt(heading)}")
        else:
            raise ParseError(path, heading_line, f"unknown '##' heading: {excerpt(heading)}")
        if _ORDER.index(name) <= position:
            raise ParseError(path, heading_line, f"'## {name}' repeated or out of order")
        position = _ORDER.index(name)
        if name == "Key facts":
            for number, text in body:
                if not text.startswith("- "):
                    raise ParseError(path, number, f"key facts are '- ' items, found {excerpt(text)}")
                _parse_fact(text[2:], facts, path, number)
        elif name == "Abstract":
            if not body:
                raise ParseError(path, heading_line, "'## Abstract' has no text")
            first, last = body[0][0], body[-1][0]
            abstract = "\n".join(lines[first - 1 : last])
        else:
            shown = _count(list_heading[2], path, heading_line)
            total = _count(list_heading[3], path, heading_line)
            items = built_all(CardItem, [_parse_item(text, path, number) for number, text in body])
            if len(items) != shown:
                raise ParseError(path, heading_line, f"'## {name}' says {shown} shown but {len(items)} items follow")
            lists[name] = built(CardList, {"shown": shown, "total": total, "items": items, "line": heading_line})
    if abstract is None:
        raise ParseError(path, len(lines), "missing '## Abstract' (card cut short?)")

    card = Card(
        path=path,
        sha256=sha256,
        text_meta=text_meta,
        reconciliation=[],
        warnings=_year_warnings(lists),
        title=lines[0][2:].strip(),
        arxiv_id=arxiv[2],
        arxiv_url=arxiv[1],
        html_url=arxiv[3],
        cited_by_count=facts.cited_by_count,
        data_through=facts.data_through,
        builds_on_in_map=facts.builds_on_in_map,
        reference_count=facts.reference_count,
        first_posted=facts.first_posted,
        builds_on=lists.get("Builds on"),
        built_on_by=lists.get("Built on by"),
        abstract=abstract,
    )
    return reconcile_card(card)
