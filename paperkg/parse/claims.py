"""The claims region of a claim-check page, from the line after the summary to `Citations` (FORMAT.md B.2–B.6).

Several elements can share a physical line (B.3), so lines are first cut into typed elements and a
small state machine then checks their order: main list, flag summary, flagged list, support notes.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from paperkg.parse.errors import ParseError, excerpt
from paperkg.parse.models import CitedSource, Claim, FlagCount, built_all
from paperkg.parse.values import MAX_COUNT, parse_count

END = "Citations"
KINDS = ("Premise", "Interpretation")
BASES = ("citation", "none given", "reasoning")
STATUS = "Quote in the paper"
SUBSTANTIAL = "Substantial claim"
NOT_SUBSTANTIAL = "Not a substantial claim"
UNMATCHED = "Couldn’t be matched to a paper in Crossref, so it can’t be checked."
EXPERIMENTAL = "Experimental — accuracy not yet measured"
CITES = "- cites "
SOURCE_SUFFIX = " source"
ALSO_STATED = "- Also stated in: § "
BOOSTED_SUFFIX = " · boosted"
RESTS = "- Rests on an assumption: "
# (sentence, identifier, is a flag kind rather than a reason), in the fixed order a page prints them.
FLAG_SENTENCES = (
    ("Probably not a substantial claim.", "probably_not_substantial", True),
    ("It may be too vague to check against evidence.", "too_vague", False),
    ("The paper’s conclusions may not depend on it.", "conclusions_may_not_depend", False),
    ("The paper may give no reason why it holds.", "no_reason_given", False),
    ("It may state two separate claims as one.", "two_claims_in_one", True),
    ("The quote only partly states this claim.", "quote_partly_states", True),
)
# Every line the claims hold is tried as flag sentences: one test rejects most.
_FLAG_SENTENCE_TEXTS = tuple(sentence for sentence, _, _ in FLAG_SENTENCES)
NOTE_SENTENCES = {
    "The paper relies on this without support.": "relies_without_support",
    "The authors state this as an assumption.": "assumption",
}
_N_OF_M = re.compile(r"([0-9]+) of ([0-9]+) sources checked")
_CONFIDENCE = re.compile(r"\(LLM, conf=([0-9]{1,3}(?:\.[0-9]{1,6})?)\)")
_VERDICT_MARK = "(LLM, conf="
# B.5 rule 2: a lowercase letter or one of .:?!) directly followed by an uppercase letter.
_SPLIT_AFTER = frozenset(".:?!)")


# ---------------------------------------------------------------- elements


class _Header(NamedTuple):
    line: int
    kind: str
    basis: str
    rest: str  # the section (main list), or section glued to the claim text (flagged list)
    dashed: bool  # `- ` prefix: a main-list header


class _FlagSummary(NamedTuple):
    line: int
    flag: str
    count: int


class _Flags(NamedTuple):
    line: int
    kinds: list[str]
    reasons: list[str]


class _Quote(NamedTuple):
    line: int
    text: str


class _AlsoStated(NamedTuple):
    line: int
    section: str
    boosted: bool


class _Status(NamedTuple):
    line: int
    substantial: bool
    checked: int | None
    total: int | None


class _Cite(NamedTuple):
    line: int
    key: str
    matched: bool


class _Unmatched(NamedTuple):
    line: int


class _Verdict(NamedTuple):
    line: int
    rationale: str
    confidence: float


class _Experimental(NamedTuple):
    line: int


class _Rests(NamedTuple):
    line: int
    text: str


class _Note(NamedTuple):
    line: int
    note: str


class _End(NamedTuple):
    line: int


_Element = (
    _Header
    | _FlagSummary
    | _Flags
    | _Quote
    | _AlsoStated
    | _Status
    | _Cite
    | _Unmatched
    | _Verdict
    | _Experimental
    | _Rests
    | _Note
    | _End
)

_DESCRIPTIONS = {
    _Header: "claim header",
    _FlagSummary: "flag-summary line",
    _Flags: "flag sentences",
    _Quote: "quote",
    _AlsoStated: "'Also stated in' line",
    _Status: "status line",
    _Cite: "'- cites' line",
    _Unmatched: "'Couldn’t be matched' line",
    _Verdict: "verdict paragraph",
    _Experimental: "'Experimental' line",
    _Rests: "'Rests on an assumption' line",
    _Note: "support note",
    _End: "'Citations' heading",
}


def _describe(element: _Element) -> str:
    return _DESCRIPTIONS[type(element)]


def _header(text: str, line: int, dashed: bool) -> _Header | None:
    """`<Kind><basis>§ <rest>` with nothing between the parts (B.2)."""
    for kind in KINDS:
        if text.startswith(kind):
            for basis in BASES:
                if text.startswith(basis, len(kind)) and text.startswith("§ ", len(kind) + len(basis)):
                    rest = text[len(kind) + len(basis) + 2 :]
                    return _Header(line, kind, basis, rest, dashed) if rest else None
    return None


def _flags(text: str, line: int, path: str) -> _Flags | None:
    """A run of flag sentences separated by single spaces, in the fixed order; None if text has none."""
    if text and not text.startswith(_FLAG_SENTENCE_TEXTS):
        return None
    kinds: list[str] = []
    reasons: list[str] = []
    position, previous = 0, -1
    while position < len(text):
        for index, (sentence, identifier, is_kind) in enumerate(FLAG_SENTENCES):  # noqa: B007 (read after break)
            if text.startswith(sentence, position):
                break
        else:
            if position == 0:
                return None
            raise ParseError(path, line, f"unrecognised text after flag sentences: {excerpt(text[position:])}")
        if index <= previous:
            raise ParseError(path, line, f"flag sentence repeated or out of order: {sentence!r}")
        previous = index
        (kinds if is_kind else reasons).append(identifier)
        position += len(sentence)
        if position < len(text):
            if text[position] != " ":
                raise ParseError(path, line, f"unrecognised text glued to a flag sentence: {excerpt(text[position:])}")
            position += 1
    return _Flags(line, kinds, reasons)


def _dashed(text: str, line: int, path: str) -> _Element:
    """A `- ` element: cites, Also stated in, Rests on an assumption, main header, flag summary."""
    if text.startswith(CITES):
        key = text[len(CITES) :]
        matched = key.endswith(SOURCE_SUFFIX)
        key = (key[: -len(SOURCE_SUFFIX)] if matched else key).strip()
        if not key:
            raise ParseError(path, line, "'- cites' without a key")
        return _Cite(line, key, matched)
    if text.startswith(ALSO_STATED):
        section = text[len(ALSO_STATED) :]
        boosted = section.endswith(BOOSTED_SUFFIX)
        section = (section[: -len(BOOSTED_SUFFIX)] if boosted else section).strip()
        if not section:
            raise ParseError(path, line, "'Also stated in' without a section")
        return _AlsoStated(line, section, boosted)
    if text.startswith(RESTS):
        return _Rests(line, text[len(RESTS) :])
    if header := _header(text[2:], line, dashed=True):
        return header
    for sentence, identifier, is_kind in FLAG_SENTENCES:
        if is_kind and text.startswith(sentence + " ", 2):
            count = parse_count(text[len(sentence) + 3 :])
            if count is not None:
                return _FlagSummary(line, identifier, count)
    raise ParseError(path, line, f"unrecognised '- ' element in the claims: {excerpt(text)}")


def _glued(rest: str, line: int, path: str, after: str) -> list[_Element]:
    """What follows a status or Experimental line on the same physical line (B.3)."""
    if not rest:
        return []
    dashed = rest[1:] if rest.startswith(" - ") else rest
    if dashed.startswith("- "):
        return [_dashed(dashed, line, path)]
    if flags := _flags(rest, line, path):
        return [flags]
    if rest in NOTE_SENTENCES:
        return [_Note(line, NOTE_SENTENCES[rest])]
    raise ParseError(path, line, f"unrecognised text glued to the {after}: {excerpt(rest)}")


def _status(text: str, line: int, path: str) -> list[_Element]:
    rest = text[len(STATUS) :]
    if rest.startswith(NOT_SUBSTANTIAL):
        substantial, rest = False, rest[len(NOT_SUBSTANTIAL) :]
    elif rest.startswith(SUBSTANTIAL):
        substantial, rest = True, rest[len(SUBSTANTIAL) :]
    else:
        raise ParseError(path, line, "status line without 'Substantial claim' or 'Not a substantial claim'")
    checked = total = None
    if counts := _N_OF_M.match(rest):
        checked, total = int(counts[1]), int(counts[2])
        if max(checked, total) > MAX_COUNT:
            raise ParseError(path, line, f"absurd source count: {excerpt(counts[0])}")
        rest = rest[counts.end() :]
    return [_Status(line, substantial, checked, total), *_glued(rest, line, path, "status line")]


def _verdict(text: str, line: int) -> _Verdict | None:
    """A paragraph ending in `(LLM, conf=0.NN)`."""
    start = text.rfind(_VERDICT_MARK)
    confidence = _CONFIDENCE.fullmatch(text, start) if start >= 0 else None
    if confidence is None:
        return None
    return _Verdict(line, text[:start].strip(), float(confidence[1]))


def _classify(text: str, line: int, path: str) -> list[_Element]:
    """The element(s) on one physical line, read where a claim element is expected."""
    if text == END:
        return [_End(line)]
    if text.startswith("- "):
        return [_dashed(text, line, path)]
    if text.startswith(STATUS):
        return _status(text, line, path)
    if len(text) >= 2 and text.startswith("“") and text.endswith("”"):
        return [_Quote(line, text[1:-1])]
    if text == UNMATCHED:
        return [_Unmatched(line)]
    if text.startswith(EXPERIMENTAL):
        return [_Experimental(line), *_glued(text[len(EXPERIMENTAL) :], line, path, "'Experimental' line")]
    if flags := _flags(text, line, path):
        return [flags]
    if text in NOTE_SENTENCES:
        return [_Note(line, NOTE_SENTENCES[text])]
    if header := _header(text, line, dashed=False):
        return [header]
    if verdict := _verdict(text, line):
        return [verdict]
    raise ParseError(path, line, f"unrecognised line in the claims: {excerpt(text)}")


class _Stream:
    """Elements of the claims region in order, with one-element lookahead."""

    def __init__(self, lines: list[str], start: int, path: str) -> None:
        self._lines = lines
        self._next = start  # index of the next unread physical line
        self._queue: deque[_Element] = deque()
        self.path = path

    def raw_line(self, what: str) -> tuple[int, str]:
        """The next physical line as plain text (a claim text), which must start a line."""
        if self._queue:
            raise ParseError(self.path, self._queue[0].line, f"expected {what} on a line of its own")
        if self._next >= len(self._lines):
            raise ParseError(self.path, len(self._lines), f"page ends where {what} should be (cut short?)")
        self._next += 1
        text = self._lines[self._next - 1]
        if not text:
            raise ParseError(self.path, self._next, f"blank line where {what} should be")
        return self._next, text

    def peek(self) -> _Element:
        if not self._queue:
            if self._next >= len(self._lines):
                raise ParseError(self.path, len(self._lines), f"page ends inside the claims: missing '{END}'")
            number, text = self.raw_line("the next claim element")
            self._queue.extend(_classify(text, number, self.path))
        return self._queue[0]

    def take(self) -> _Element:
        if not self._queue:
            self.peek()
        return self._queue.popleft()

    def expect(self, kind: type, what: str, context: str):
        element = self.take()
        if not isinstance(element, kind):
            raise ParseError(self.path, element.line, f"expected {what} {context}, found a {_describe(element)}")
        return element

    @property
    def next_index(self) -> int:
        return self._next


# ---------------------------------------------------------------- claims


@dataclass
class _ListedSource:
    cite: _Cite
    verdict: _Verdict | None = None


@dataclass
class _Draft:
    """A claim while its region is read; flagged sections are split once all known sections are seen."""

    header: _Header
    text: str | None
    quotes: list[str]
    status: _Status | None = None
    flags: _Flags | None = None
    also_stated_in: list[str] = field(default_factory=list)
    boosted: bool = False
    rests: _Rests | None = None
    sources: list[_ListedSource] = field(default_factory=list)


class ClaimsRegion(NamedTuple):
    flag_summary: list[FlagCount]
    claims: list[Claim]
    warnings: list[str]
    next_index: int  # index of the line after `Citations`


def _read_claim_body(stream: _Stream, draft: _Draft) -> None:
    """Quote(s), Also stated in, the status line, then cites with their follow-up lines."""
    context = f"in the claim at line {draft.header.line}"
    draft.quotes.append(stream.expect(_Quote, "a quote", context).text)
    while isinstance(stream.peek(), _AlsoStated):
        _add_also_stated(draft, stream.take())
        if isinstance(stream.peek(), _Quote):
            draft.quotes.append(stream.take().text)
    draft.status = stream.expect(_Status, "a status line", context)
    if isinstance(stream.peek(), _Rests):
        draft.rests = stream.take()
    while True:
        element = stream.peek()
        if isinstance(element, _AlsoStated):
            _add_also_stated(draft, stream.take())
        elif isinstance(element, _Cite):
            stream.take()
            source = _ListedSource(element)
            follow = stream.peek()
            if not element.matched:
                context = f"after the unmatched source at line {element.line}"
                stream.expect(_Unmatched, "'Couldn’t be matched …'", context)
            elif isinstance(follow, _Unmatched):
                raise ParseError(stream.path, follow.line, "'Couldn’t be matched …' after a matched source")
            elif isinstance(follow, _Verdict):
                source.verdict = stream.take()
                stream.expect(_Experimental, "'Experimental — …'", f"after the verdict at line {follow.line}")
            draft.sources.append(source)
        else:
            return


def _add_also_stated(draft: _Draft, element: _AlsoStated) -> None:
    # The same line is repeated after the cites (B.2.5): record each section once.
    if element.section not in draft.also_stated_in:
        draft.also_stated_in.append(element.section)
    draft.boosted = draft.boosted or element.boosted


def _split_section(glued: str, known: list[str]) -> tuple[str, str] | None:
    """B.5: the longest known section that is a proper prefix, else the first lower→Upper seam."""
    for title in known:
        if len(glued) > len(title) and glued.startswith(title):
            return title, glued[len(title) :]
    for index in range(len(glued) - 1):
        before, after = glued[index], glued[index + 1]
        if (before.islower() or before in _SPLIT_AFTER) and after.isupper():
            return glued[: index + 1], glued[index + 1 :]
    return None


def _sources(draft: _Draft, warnings: list[str]) -> list[CitedSource]:
    """FORMAT.md B.4's deterministic rule for which listed sources were checked and what was found."""
    checked = draft.status.checked or 0
    with_verdict = sum(source.verdict is not None for source in draft.sources)
    remaining = checked - with_verdict
    if remaining < 0:
        warnings.append(
            f"claim at line {draft.header.line} shows {with_verdict} verdicts but says {checked} sources were checked"
        )
    candidates = sum(source.cite.matched and source.verdict is None for source in draft.sources)
    ambiguous = 0 < remaining < candidates
    result = []
    for source in draft.sources:
        verdict = confidence = rationale = None
        is_checked = pick = False
        if source.verdict is not None:
            is_checked, verdict = True, "not_supported"
            confidence, rationale = source.verdict.confidence, source.verdict.rationale
        elif source.cite.matched and remaining > 0:
            is_checked, verdict, pick = True, "supported", ambiguous
            remaining -= 1
        first_author, year, suffix, key_norm = parse_cite_key(source.cite.key)
        result.append(
            {
                "key": source.cite.key,
                "first_author": first_author,
                "year": year,
                "year_suffix": suffix,
                "key_norm": key_norm,
                "matched": source.cite.matched,
                "checked": is_checked,
                "verdict": verdict,
                "confidence": confidence,
                "rationale": rationale,
                "ambiguous": pick,
                "line": source.cite.line,
            }
        )
    return built_all(CitedSource, result)


def _year_and_suffix(text: str) -> tuple[int, str | None] | None:
    """`2023` or `2023a`."""
    if len(text) in (4, 5) and text[:4].isascii() and text[:4].isdecimal():
        if len(text) == 4:
            return int(text), None
        if "a" <= text[4] <= "z":
            return int(text[:4]), text[4]
    return None


def parse_cite_key(key: str) -> tuple[str | None, int | None, str | None, str]:
    """`Marks et al., 2024` / `Wei et al. (2022)` / `Nanda, 2023a` / `[2023]` → first author, year, suffix, key_norm.

    key_norm is "<author part>, <year><suffix>", so the comma and parenthesised forms agree.
    """
    flat = " ".join(key.split())
    author: str | None = flat
    year_part = None
    if flat.startswith("[") and flat.endswith("]"):
        author, year_part = None, flat[1:-1].strip()
    elif flat.endswith(")") and "(" in flat:
        head, _, tail = flat[:-1].rpartition("(")
        author, year_part = head.strip(), tail.strip()
    elif "," in flat:
        head, _, tail = flat.rpartition(",")
        author, year_part = head.strip(), tail.strip()
    parsed = _year_and_suffix(year_part) if year_part is not None else None
    if parsed is None:
        return _first_author(flat), None, None, flat
    year, suffix = parsed
    stamp = f"{year}{suffix or ''}"
    if not author:
        return None, year, suffix, stamp
    if author.endswith(" et al"):
        author += "."
    return _first_author(author), year, suffix, f"{author}, {stamp}"


def _first_author(author: str) -> str:
    """`Jain & Wallace` → `Jain`; `Yom Din et al.` → `Yom Din`; organisations stay whole."""
    for suffix in (" et al.", " et al"):
        if author.endswith(suffix):
            author = author[: -len(suffix)]
            break
    return author.split(" & ", 1)[0].strip()


def _claim(draft: _Draft, origin: str, section: str | None, text: str, warnings: list[str]) -> dict[str, Any]:
    """The fields of a Claim, in its order: a support note may still add to them."""
    if draft.rests is not None and draft.rests.text != text:
        warnings.append(f"line {draft.rests.line}: 'Rests on an assumption' repeats a different text than its claim")
    return {
        "text": text,
        "quotes": draft.quotes,
        "kind": draft.header.kind,
        "basis": draft.header.basis,
        "section": section,
        "substantial": draft.status.substantial,
        "sources_checked": draft.status.checked,
        "sources_total": draft.status.total,
        "flags": draft.flags.kinds if draft.flags else [],
        "flag_reasons": draft.flags.reasons if draft.flags else [],
        "support_note": None,
        "support_note_line": None,
        "rests_on_assumption": draft.rests is not None,
        "also_stated_in": draft.also_stated_in,
        "also_stated_boosted": draft.boosted,
        "origin": origin,
        "line": draft.header.line,
        "sources": _sources(draft, warnings),
    }


def parse_claims(lines: list[str], start: int, path: str) -> ClaimsRegion:
    """Parse from lines[start] (the first line after the claims summary) through `Citations`."""
    stream = _Stream(lines, start, path)
    main: list[_Draft] = []
    flagged: list[_Draft] = []
    notes: list[tuple[_Note, int, str, str]] = []  # note, text line, text, quote
    flag_summary: list[FlagCount] = []
    phase = "main"  # → "summary" → "flagged" → "notes"
    while not isinstance(element := stream.take(), _End):
        if isinstance(element, _Header) and element.dashed and phase == "main":
            _, text = stream.raw_line("the claim text")
            draft = _Draft(element, text, [])
            _read_claim_body(stream, draft)
            main.append(draft)
        elif isinstance(element, _FlagSummary) and phase in ("main", "summary"):
            phase = "summary"
            flag_summary.append(FlagCount(flag=element.flag, count=element.count, line=element.line))
        elif isinstance(element, _Flags) and phase in ("main", "summary", "flagged"):
            phase = "flagged"
            if not element.kinds:
                raise ParseError(path, element.line, "flag reasons without a flag kind")
            context = f"after the flag sentences at line {element.line}"
            header = stream.expect(_Header, "a flagged claim header", context)
            if header.dashed:
                raise ParseError(path, header.line, "a flagged claim header has no '- ' prefix")
            draft = _Draft(header, None, [], flags=element)
            _read_claim_body(stream, draft)
            flagged.append(draft)
        elif isinstance(element, _Note):
            phase = "notes"
            text_line, text = stream.raw_line("the claim text of a support note")
            quote = stream.expect(_Quote, "a quote", f"in the support note at line {element.line}")
            notes.append((element, text_line, text, quote.text))
        elif isinstance(element, _Header) and not element.dashed:
            raise ParseError(path, element.line, "a flagged claim without flag sentences")
        else:
            raise ParseError(path, element.line, f"{_describe(element)} out of place")

    warnings: list[str] = []
    # Sections printed unglued: main-list headers and 'Also stated in' lines (B.5 rule 1).
    known = {draft.header.rest for draft in main}
    known.update(section for draft in main + flagged for section in draft.also_stated_in)
    known_longest_first = sorted(known, key=len, reverse=True)
    claims = [_claim(draft, "main", draft.header.rest, draft.text, warnings) for draft in main]
    for draft in flagged:
        split = _split_section(draft.header.rest, known_longest_first)
        if split is None:
            raise ParseError(path, draft.header.line, "cannot tell the section from the claim text")
        claims.append(_claim(draft, "flagged", split[0], split[1], warnings))
    by_text = {claim["text"]: index for index, claim in enumerate(claims)}
    for note, _text_line, text, quote in notes:
        if text in by_text:
            claim = claims[by_text[text]]
            if claim["support_note"] is None:
                claim["support_note"], claim["support_note_line"] = note.note, note.line
            else:
                warnings.append(f"line {note.line}: a second support note for the claim at line {claim['line']}")
            continue
        by_text[text] = len(claims)
        claims.append(
            {
                "text": text,
                "quotes": [quote],
                "kind": None,
                "basis": None,
                "section": None,
                "substantial": None,
                "sources_checked": None,
                "sources_total": None,
                "flags": [],
                "flag_reasons": [],
                "support_note": note.note,
                "support_note_line": note.line,
                "rests_on_assumption": False,
                "also_stated_in": [],
                "also_stated_boosted": False,
                "origin": "support_note",
                "line": note.line,
                "sources": [],
            }
        )
    return ClaimsRegion(flag_summary, built_all(Claim, claims), warnings, stream.next_index)
