"""From a parsed document to what it asserts: paper mentions, citations, claims and sources.

Papers are still mentions here (identity is resolved against the graph when writing);
claims and sources already have their deterministic keys.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from paperkg.graph.contract import NODES
from paperkg.graph.identity import (
    RANK_CARD_ITEM,
    RANK_RAW_REFERENCE,
    RANK_REFERENCE,
    RANK_SUBJECT,
    Evidence,
    Mention,
)
from paperkg.parse.identifiers import normalise_arxiv_id, split_doi
from paperkg.parse.models import Card, Page, RawReference, Reference
from paperkg.parse.normalise import index_key, title_norm
from paperkg.parse.values import parse_count

CLAIM_PROPERTIES = tuple(NODES["Claim"][1])  # a claim's row holds the model's fields of these names

SUBJECT = 0  # the document's own paper is always mention 0
YEAR_WITH_SUFFIX = re.compile(r"\b((?:19|20)\d\d)([a-z])?\b")


@dataclass
class Unit:
    """A document's mentions that state the same evidence: one MENTIONS relationship. Its roles
    say what the document asserts through it, so relationships can be drawn again from the
    units alone when identity moves them to another work."""

    evidence: Evidence
    rank: int  # of its best-ranked mention, whose properties it carries
    properties: dict[str, Any]
    lines: list[int]
    subject: bool = False  # the document's own paper
    cited: bool = False  # the document's paper cites it
    citing: bool = False  # it cites the document's paper
    sources: list[str] = field(default_factory=list)  # source keys of the page resolved to it
    # The evidence's key, worked out once where the document is read: rows and identity use it
    # while the server waits for them.
    key: str = field(init=False)

    def __post_init__(self) -> None:
        self.key = self.evidence.key


@dataclass
class DocumentMentions:
    """A document's mentions of works in the order it makes them (mention 0 is its own paper),
    the citations between them and the sources resolved to them: what its units are grouped
    from (`units_of`), then let go."""

    mentions: list[Mention] = field(default_factory=list)
    cites: list[tuple[int, int]] = field(default_factory=list)  # (citing mention, cited mention)
    refers_to: list[tuple[str, int]] = field(default_factory=list)  # (source_id, mention)

    @property
    def paper_key(self) -> str:
        """The document's own paper as its text names it: arXiv id, DOI or normalised title."""
        subject = self.mentions[SUBJECT]
        return subject.arxiv_id or subject.doi or title_norm(subject.title or "")

    def add(self, mention: Mention) -> int:
        self.mentions.append(mention)
        return len(self.mentions) - 1


@dataclass
class Assertions:
    """Everything one document asserts, keyed for writing."""

    doc_id: str
    path: str
    kind: str
    sha256: str
    size_bytes: int
    warnings: list[str]
    paper_key: str = ""  # DocumentMentions.paper_key
    units: list[Unit] = field(default_factory=list)  # unit 0 is the document's own paper
    claims: list[dict[str, Any]] = field(default_factory=list)
    sources: list[dict[str, Any]] = field(default_factory=list)
    claim_cites: list[dict[str, str]] = field(default_factory=list)
    checks: list[dict[str, Any]] = field(default_factory=list)


def assertions_of(document: Card | Page, doc_id: str, size_bytes: int) -> Assertions:
    out = Assertions(
        doc_id=doc_id,
        path=document.path,
        kind=document.kind,
        sha256=document.sha256,
        size_bytes=size_bytes,
        warnings=list(document.warnings),
    )
    read = DocumentMentions()
    if isinstance(document, Card):
        _card(document, read)
    else:
        _page(document, out, read)
    out.paper_key = read.paper_key
    out.units = units_of(read)
    return out


def units_of(read: DocumentMentions) -> list[Unit]:
    """The document's mentions grouped by evidence, in order of first mention; each unit speaks
    with its first best-ranked mention."""
    units: dict[Evidence, Unit] = {}
    unit_of: list[Unit] = []
    for mention in read.mentions:
        unit = units.get(evidence := mention.evidence)
        if unit is None:
            unit = units[evidence] = Unit(evidence, mention.rank, mention.properties, [])
        elif mention.rank > unit.rank:
            unit.rank, unit.properties = mention.rank, mention.properties
        if mention.line is not None and mention.line not in unit.lines:
            unit.lines.append(mention.line)
        unit_of.append(unit)
    unit_of[SUBJECT].subject = True
    for citing, cited in read.cites:
        if citing == SUBJECT:
            unit_of[cited].cited = True
        else:
            unit_of[citing].citing = True
    for source_id, index in read.refers_to:
        unit_of[index].sources.append(source_id)
    return list(units.values())


# -- cards ---------------------------------------------------------------------------------


def _card(card: Card, read: DocumentMentions) -> None:
    read.add(
        Mention(
            arxiv_id=normalise_arxiv_id(card.arxiv_id),
            doi=None,
            title=card.title,
            year=card.first_posted.year if card.first_posted else None,
            rank=RANK_SUBJECT,
            line=1,
            properties=_present(
                title=card.title,
                title_norm=title_norm(card.title),
                year=card.first_posted.year if card.first_posted else None,
                cited_by_count=card.cited_by_count,
                reference_count=card.reference_count,
                builds_on_in_map=card.builds_on_in_map,
                first_posted=card.first_posted,
                abstract=card.abstract,
            ),
        )
    )
    for section, subject_cites in ((card.builds_on, True), (card.built_on_by, False)):
        for item in section.items if section else []:
            index = read.add(
                Mention(
                    arxiv_id=normalise_arxiv_id(item.arxiv_id),
                    doi=None,
                    title=item.title,
                    year=item.year,
                    rank=RANK_CARD_ITEM,
                    line=item.line,
                    properties=_present(title=item.title, title_norm=title_norm(item.title), year=item.year),
                )
            )
            read.cites.append((SUBJECT, index) if subject_cites else (index, SUBJECT))


# -- pages ---------------------------------------------------------------------------------


def _page(page: Page, out: Assertions, read: DocumentMentions) -> None:
    metadata = {entry.key: entry.values for entry in page.metadata}
    year = _int(metadata.get("Published"))
    arxiv_id, doi = split_doi(page.doi, page.arxiv_id)
    authors = metadata.get("Authors", [])
    read.add(
        Mention(
            arxiv_id=arxiv_id,
            doi=doi,
            title=page.title,
            year=year,
            rank=RANK_SUBJECT,
            line=2,
            properties=_present(
                title=page.title,
                title_norm=title_norm(page.title),
                year=year,
                venue=_first(metadata.get("Venue")),
                abstract=page.abstract,
                authors=_split_authors(authors[0]) if authors else None,
                cited_by_count=_int(metadata.get("Cited by")),
                reference_count=_int(metadata.get("References")),
            ),
        )
    )
    # Each list entry is its own mention, in page order, so REFERS_TO can name the entry.
    reference_mentions = []
    for reference in page.references:
        index = read.add(_reference_mention(reference, read.paper_key))
        reference_mentions.append((reference, index))
        read.cites.append((SUBJECT, index))
    raw_mentions = []
    for raw in page.raw_references:
        index = read.add(_raw_mention(raw, read.paper_key))
        raw_mentions.append((raw, index))
        read.cites.append((SUBJECT, index))
    for citing in page.cited_by:
        read.cites.append((read.add(_reference_mention(citing, read.paper_key)), SUBJECT))
    _claims(page, out, read, reference_mentions, raw_mentions)


def _reference_mention(reference: Reference, paper_key: str) -> Mention:
    arxiv_id, doi = split_doi(reference.doi, None)
    return Mention(
        arxiv_id=arxiv_id,
        doi=doi,
        title=reference.title,
        year=reference.year,
        rank=RANK_REFERENCE,
        line=reference.line,
        properties=_present(
            title=reference.title,
            title_norm=title_norm(reference.title) if reference.title else None,
            year=reference.year,
            venue=reference.venue,
            authors=reference.authors or None,
            cited_by_count=reference.cited_by_count,
        ),
        fallback=None
        if (arxiv_id or doi or reference.title)
        else _fallback(paper_key, f"{reference.authors_text} ({reference.year}) {reference.venue}"),
    )


def _raw_mention(raw: RawReference, paper_key: str) -> Mention:
    arxiv_id, doi = split_doi(raw.doi, raw.arxiv_id)
    return Mention(
        arxiv_id=arxiv_id,
        doi=doi,
        title=raw.title,
        year=raw.year,
        rank=RANK_RAW_REFERENCE,
        line=raw.line,
        properties=_present(
            title=raw.title,
            title_norm=title_norm(raw.title) if raw.title else None,
            year=raw.year,
            venue=raw.venue,
            authors=raw.authors or None,
            url=raw.url,
            reference_text=raw.text,
        ),
        fallback=None if (arxiv_id or doi or raw.title) else _fallback(paper_key, raw.text),
    )


def _fallback(paper_key: str, entry_text: str) -> str:
    """Identifies an entry with no id and no title by its text, within the documents about one
    paper only (so neither where the document lies nor an edit elsewhere in it changes it)."""
    return index_key(f"{paper_key}|{entry_text}")


def _claims(
    page: Page,
    out: Assertions,
    read: DocumentMentions,
    references: list[tuple[Reference, int]],
    raws: list[tuple[RawReference, int]],
) -> None:
    page_key = read.paper_key
    sources: dict[str, dict[str, Any]] = {}
    pairs: set[tuple[str, str]] = set()
    for claim in page.claims:
        claim_id = "claim:" + _digest(page_key, _text_key(claim.text))
        out.claims.append(
            {"claim_id": claim_id, "properties": {name: getattr(claim, name) for name in CLAIM_PROPERTIES}}
        )
        for cited in claim.sources:
            source_id = "source:" + _digest(page_key, cited.key_norm)
            source = sources.setdefault(
                source_id,
                {
                    "source_id": source_id,
                    "properties": {
                        "key": cited.key_norm,
                        "first_author": cited.first_author,
                        "year": cited.year,
                        "year_suffix": cited.year_suffix,
                        "matched": False,
                    },
                },
            )
            source["properties"]["matched"] |= cited.matched
            if (claim_id, source_id) not in pairs:
                pairs.add((claim_id, source_id))
                out.claim_cites.append({"claim_id": claim_id, "source_id": source_id})
            if cited.checked:
                out.checks.append(
                    {
                        "claim_id": claim_id,
                        "source_id": source_id,
                        "verdict": cited.verdict,
                        "confidence": cited.confidence,
                        "rationale": cited.rationale,
                        "ambiguous": cited.ambiguous,
                    }
                )
    out.sources = list(sources.values())
    for source_id, source in sources.items():
        target = resolve_source(source["properties"], references, raws)
        if target is not None:
            read.refers_to.append((source_id, target))


# -- source keys → reference entries -------------------------------------------------------


def resolve_source(
    source: dict[str, Any], references: list[tuple[Reference, int]], raws: list[tuple[RawReference, int]]
) -> int | None:
    """The mention of the reference entry a source key names: same first author and year.

    A key's a/b/c suffix names the entry that prints that suffix. Only where none of that
    author's entries of that year prints a suffix does the suffix count them in list order.
    When no entry has the key's year, the one entry a year off is taken, under the same rule
    (a preprint's year against the published version's, as in `Szegedy et al., 2014` for a
    2013 entry).
    """
    author = _fold(source["first_author"] or "")
    year = source["year"]
    if not author or year is None:
        return None
    candidates = _entries_by(author, year, references, raws)
    if not candidates:
        candidates = _entries_by(author, year - 1, references, raws) + _entries_by(author, year + 1, references, raws)
        if len(candidates) != 1:
            return None
    suffix = source.get("year_suffix")
    if not suffix:
        return candidates[0][1]
    exact = [index for printed, index in candidates if printed == suffix]
    if exact:
        return exact[0]
    if any(printed for printed, _ in candidates):
        return None
    position = ord(suffix) - ord("a")
    return candidates[position][1] if position < len(candidates) else None


def _entries_by(
    author: str, year: int, references: list[tuple[Reference, int]], raws: list[tuple[RawReference, int]]
) -> list[tuple[str | None, int]]:
    """(suffix the entry prints, mention) for the entries by this first author in this year."""
    candidates: list[tuple[str | None, int]] = []
    for reference, index in references:
        if reference.year == year and reference.authors and _surname_matches(author, reference.authors[0]):
            candidates.append((None, index))
    for raw, index in raws:
        if raw.year == year and raw.authors and _surname_matches(author, raw.authors[0]):
            printed = {m.group(2) for m in YEAR_WITH_SUFFIX.finditer(raw.text) if m.group(1) == str(year)}
            candidates.append((min(printed - {None}, default=None), index))
    return candidates


def _surname_matches(author: str, entry_author: str) -> bool:
    """`marks` against "Marks, S." (structured) or "Samuel Marks" (raw); organisations whole."""
    name = _fold(entry_author).strip(" ,.")
    surname = name.split(",")[0].strip() if "," in name else name
    return author == surname or surname.endswith(" " + author) or name.startswith(author + " ")


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold().strip()


# -- small helpers -------------------------------------------------------------------------


def _present(**properties: Any) -> dict[str, Any]:
    """The properties a mention actually states (None is "not stated", never "erase")."""
    return {key: value for key, value in properties.items() if value is not None}


def _text_key(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def _digest(*parts: str) -> str:
    return hashlib.sha1("\x1f".join(parts).encode("utf-8")).hexdigest()[:20]


def _first(values: list[str] | None) -> str | None:
    return values[0] if values else None


def _int(values: list[str] | None) -> int | None:
    text = _first(values)
    return parse_count(text.strip()) if text else None


def _split_authors(text: str) -> list[str]:
    """`Sharkey, L., Chughtai, B., …` → ["Sharkey, L.", "Chughtai, B.", …]."""
    parts = [part.strip() for part in text.split(",")]
    authors = []
    for surname, initials in zip(parts[::2], parts[1::2]):
        authors.append(f"{surname}, {initials}" if initials else surname)
    if len(parts) % 2 and parts[-1]:
        authors.append(parts[-1])
    return authors


class Rows(list):
    """A statement's rows, shown in a log by their number: the driver formats every parameter
    for its debug log even when that log is off (neo4j 6.4, `Bolt5x5.run`)."""

    def __repr__(self) -> str:
        return f"<{len(self)} rows>"
