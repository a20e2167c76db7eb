"""Claim-check pages (FORMAT.md B): read top to bottom, each required anchor in its turn (C)."""

from __future__ import annotations

import re

from paperkg.parse.claims import parse_claims
from paperkg.parse.errors import ParseError, excerpt
from paperkg.parse.identifiers import split_doi
from paperkg.parse.models import (
    About,
    ClaimsSummary,
    Limitation,
    MetadataEntry,
    Page,
    PageHeader,
    Snapshot,
    TextMeta,
)
from paperkg.parse.normalise import title_norm
from paperkg.parse.rawref import parse_raw_references
from paperkg.parse.reconcile import reconcile_page
from paperkg.parse.references import parse_reference_list
from paperkg.parse.values import parse_count, parse_iso_date

_HEADER_REST = re.compile(
    r"([0-9,]+) of the ([0-9,]+) references? it cites (?:were|was) found in a registry or an index; "
    r"([0-9,]+) of the ([0-9,]+) sources? its claims cite (?:were|was) checked for support\."
)
_OPEN_ACCESS = "Open access"
_ABSTRACT = "Abstract"
_OVERVIEW = "Overview"
_SNAPSHOT = "AI snapshot"
_SNAPSHOT_LISTS = ("Key findings", "Methods", "Limitations")  # headings of `- ` item lists
_TLDR = "TL;DR"
_WRITTEN_FROM = "Written from "
_DISCLAIMER = "Model-written summary."
_LIMITATION_KINDS = ("Stated", "Evident")
_INTEGRITY = "Integrity signals"
_CLAIMS = "Claims the paper makes"
_SUMMARY = re.compile(r"([0-9,]+) of ([0-9,]+) cited sources? checked · ([0-9,]+) supported · ([0-9,]+) flagged · (.+)")
_CITES = "Cites"
_CITES_NOTE = "Part of this paper’s reference list could not be split into single entries."
_REFERENCES_SORT_LABEL = "Flagged first, then by citations"
_RAW_HEADER = "Research works printed but not linked: "
_CITED_BY = "Cited by"
_CITED_BY_SORT_LABEL = "Sorted by citations"
_METADATA = "Metadata"
_METADATA_KEYS = frozenset(
    {
        "Authors", "ORCID", "Venue", "Publisher", "Published", "ISSN", "DOI", "arXiv", "OpenAlex",
        "Semantic Scholar", "PubMed", "PMID", "PMCID", "Cited by", "References", "Citations by year",
        "Type", "Language", "Open access", "Licence", "License", "Locations", "Topics", "Keywords",
    }
)  # fmt: skip
# `arXiv` is a value, not a key, directly after one of these keys while it has no value yet (B.9).
_KEYS_NAMING_A_SOURCE = frozenset({"Venue", "Publisher"})
_ABOUT = "About these checks"
_FOOTER_SEPARATOR = "›"
_EXTRACTION = re.compile(r"drew the claims from the paper on ([0-9]{4}-[0-9]{2}-[0-9]{2})")
_CLAIM_MODEL = re.compile(r"\(model ([^,()]+), prompt ([^,()]+)\)")
_LABELLED = "labelled each claim"
_MODEL = re.compile(r"\(model ([^,()]+)")
_CHECK_MODEL = re.compile(r"Cited sources are checked with a language model’s help \(([^()]+)\)")


def is_page_header(line: str) -> bool:
    return _parse_header(line) is not None


def _parse_header(line: str) -> PageHeader | None:
    """Line 1 (B.1): the registry note is free text up to the first `;`."""
    note, separator, rest = line.partition("; ")
    counts = _HEADER_REST.fullmatch(rest) if separator and note else None
    if counts is None:
        return None
    numbers = [parse_count(group) for group in counts.groups()]
    if None in numbers:
        return None
    found, total, checked, sources = numbers
    return PageHeader(
        registry_note=note,
        references_found=found,
        references_total=total,
        sources_checked=checked,
        sources_total=sources,
    )


class _Cursor:
    """Reads the page's lines in order; numbers are 1-based."""

    def __init__(self, lines: list[str], path: str) -> None:
        self.lines = lines
        self.index = 0
        self.path = path

    def peek(self) -> str | None:
        return self.lines[self.index] if self.index < len(self.lines) else None

    def take(self, what: str) -> str:
        text = self.peek()
        if text is None:
            raise ParseError(self.path, len(self.lines), f"page ends where {what} should be (cut short?)")
        if not text:
            raise ParseError(self.path, self.index + 1, f"blank line where {what} should be")
        self.index += 1
        return text

    def expect(self, anchor: str) -> None:
        if self.peek() is None:
            raise ParseError(self.path, len(self.lines), f"missing '{anchor}' (page cut short?)")
        if self.peek() != anchor:
            raise ParseError(self.path, self.index + 1, f"expected '{anchor}', found {excerpt(self.peek())}")
        self.index += 1

    def take_if(self, text: str) -> bool:
        if self.peek() == text:
            self.index += 1
            return True
        return False

    @property
    def number(self) -> int:
        """Line number of the line peek() returns."""
        return self.index + 1


def _read_abstract(cursor: _Cursor) -> tuple[bool, str | None]:
    """L3–L4: an optional `Open access` badge glued to an optional `Abstract` heading."""
    heading = cursor.peek()
    if heading is None or heading == _OVERVIEW:
        return False, None
    open_access = heading.startswith(_OPEN_ACCESS)
    rest = heading[len(_OPEN_ACCESS) :] if open_access else heading
    if rest not in ("", _ABSTRACT):
        raise ParseError(cursor.path, cursor.number, f"expected 'Abstract' or '{_OVERVIEW}', found {excerpt(heading)}")
    cursor.index += 1
    return open_access, cursor.take("the abstract") if rest else None


def _read_snapshot(cursor: _Cursor) -> Snapshot | None:
    if not cursor.take_if(_SNAPSHOT):
        return None
    provenance = tldr = disclaimer = None
    lists: dict[str, list[str]] = {name: [] for name in _SNAPSHOT_LISTS}
    limitations: list[Limitation] = []
    heading = None
    while (text := cursor.peek()) is not None and text not in (_INTEGRITY, _CLAIMS):
        number = cursor.number
        cursor.take("the AI snapshot")
        if text == _TLDR or text in _SNAPSHOT_LISTS:
            heading = text
        elif heading == _TLDR and tldr is None:
            tldr = text
        elif heading == "Limitations" and text.startswith("- "):
            kind, separator, body = text[2:].partition(": ")
            if not separator or kind not in _LIMITATION_KINDS:
                reason = f"limitation is not 'Stated: …' or 'Evident: …': {excerpt(text)}"
                raise ParseError(cursor.path, number, reason)
            limitations.append(Limitation(kind=kind, text=body))
        elif heading in _SNAPSHOT_LISTS and text.startswith("- "):
            lists[heading].append(text[2:])
        elif text.startswith(_DISCLAIMER) and disclaimer is None:
            disclaimer, heading = text, None
        elif text.startswith(_WRITTEN_FROM) and heading is None and provenance is None:
            provenance = text
        else:
            raise ParseError(cursor.path, number, f"unexpected line in the AI snapshot: {excerpt(text)}")
    return Snapshot(
        provenance=provenance,
        tldr=tldr,
        key_findings=lists["Key findings"],
        methods=lists["Methods"],
        limitations=limitations,
        disclaimer=disclaimer,
    )


def _read_summary(cursor: _Cursor) -> ClaimsSummary:
    number = cursor.number
    text = cursor.take("the claims summary line")
    match = _SUMMARY.fullmatch(text)
    numbers = [parse_count(group) for group in match.groups()[:4]] if match else [None]
    if None in numbers:
        raise ParseError(cursor.path, number, f"malformed claims summary line: {excerpt(text)}")
    checked, cited, supported, flagged = numbers
    return ClaimsSummary(
        checked=checked, cited=cited, supported=supported, flagged=flagged, accuracy=match[5], line=number
    )


def _read_metadata(cursor: _Cursor) -> list[MetadataEntry]:
    entries: list[MetadataEntry] = []
    while (text := cursor.peek()) is not None and text != _ABOUT:
        number = cursor.number
        cursor.take("metadata")
        if not text.startswith("- "):
            raise ParseError(cursor.path, number, f"metadata lines start with '- ': {excerpt(text)}")
        value = text[2:]
        previous = entries[-1] if entries else None
        source_value = previous is not None and previous.key in _KEYS_NAMING_A_SOURCE and not previous.values
        if value in _METADATA_KEYS and not (value == "arXiv" and source_value):
            entries.append(MetadataEntry(key=value, values=[], line=number))
        elif previous is None:
            raise ParseError(cursor.path, number, f"metadata value before any key: {excerpt(value)}")
        else:
            previous.values.append(value)
    return entries


def _metadata_value(entries: list[MetadataEntry], key: str) -> str | None:
    for entry in entries:
        if entry.key == key and entry.values:
            return entry.values[0]
    return None


def _read_about(cursor: _Cursor) -> tuple[About, list[str]]:
    """The provenance prose, then the footer line of `›`-separated links."""
    prose: list[str] = []
    while (text := cursor.peek()) is not None and not text.endswith(_FOOTER_SEPARATOR):
        prose.append(cursor.take("the About prose"))
    if text is None:
        raise ParseError(cursor.path, len(cursor.lines), "missing the footer links line ('… ›') (page cut short?)")
    cursor.index += 1
    links = [link.strip() for link in text.split(_FOOTER_SEPARATOR) if link.strip()]
    extraction_date = claim_model = claim_prompt = label_model = check_model = None
    # B.9: the extraction date and the models are in prose; each is read from the first line naming it.
    for line in prose:
        if extraction_date is None and (extraction := _EXTRACTION.search(line)):
            extraction_date = parse_iso_date(extraction[1])
            if model := _CLAIM_MODEL.search(line):
                claim_model, claim_prompt = model[1], model[2]
        elif label_model is None and _LABELLED in line and (model := _MODEL.search(line)):
            label_model = model[1]
        elif check_model is None and (model := _CHECK_MODEL.search(line)):
            check_model = model[1]
    about = About(
        extraction_date=extraction_date,
        claim_model=claim_model,
        claim_prompt=claim_prompt,
        label_model=label_model,
        check_model=check_model,
        prose=prose,
    )
    return about, links


def _is_references_end(text: str) -> bool:
    return text in (_REFERENCES_SORT_LABEL, _CITED_BY) or text.startswith(_RAW_HEADER)


def parse_page(lines: list[str], *, path: str, sha256: str, text_meta: TextMeta) -> Page:
    header = _parse_header(lines[0])
    if header is None:
        raise ParseError(path, 1, "malformed integrity header")
    end = len(lines)
    while end > 1 and not lines[end - 1]:  # blank lines at the very end are layout, not content
        end -= 1
    lines = lines[:end]
    cursor = _Cursor(lines, path)
    cursor.index = 1
    title_line = cursor.number
    title = cursor.take("the title")
    open_access, abstract = _read_abstract(cursor)
    cursor.expect(_OVERVIEW)
    snapshot = _read_snapshot(cursor)
    nav_labels: list[str] = []
    if cursor.take_if(_INTEGRITY):
        while (text := cursor.peek()) is not None and text != _CLAIMS:
            nav_labels.append(cursor.take("a navigation label"))
    cursor.expect(_CLAIMS)
    summary = _read_summary(cursor)

    region = parse_claims(lines, cursor.index, path)
    cursor.index = region.next_index
    cursor.expect(_CITES)
    cites_note = _CITES_NOTE if cursor.take_if(_CITES_NOTE) else None
    references, cursor.index = parse_reference_list(lines, cursor.index, _is_references_end, path, "Cites")
    references_sort_label = _REFERENCES_SORT_LABEL if cursor.take_if(_REFERENCES_SORT_LABEL) else None
    raw_lines: list[tuple[int, str]] = []
    raw_stated = None
    if (text := cursor.peek()) is not None and text.startswith(_RAW_HEADER):
        raw_stated = parse_count(text[len(_RAW_HEADER) :])
        if raw_stated is None:
            raise ParseError(path, cursor.number, f"not a count: {excerpt(text[len(_RAW_HEADER) :])}")
        cursor.index += 1
        while (text := cursor.peek()) is not None and text != _CITED_BY:
            if not text.startswith("- "):
                raise ParseError(path, cursor.number, f"raw reference lines start with '- ': {excerpt(text)}")
            raw_lines.append((cursor.number, text[2:]))
            cursor.index += 1
    cursor.expect(_CITED_BY)
    cited_by_sort_label = _CITED_BY_SORT_LABEL if cursor.take_if(_CITED_BY_SORT_LABEL) else None
    cited_by, cursor.index = parse_reference_list(lines, cursor.index, lambda text: text == _METADATA, path, "Cited by")
    cursor.expect(_METADATA)
    metadata = _read_metadata(cursor)
    cursor.expect(_ABOUT)
    about, footer_links = _read_about(cursor)
    footer_text = lines[cursor.index :]
    arxiv_id, doi = _metadata_value(metadata, "arXiv"), _metadata_value(metadata, "DOI")
    if split_doi(doi, arxiv_id) == (None, None) and not title_norm(title):
        raise ParseError(
            path, title_line, "the page names no work: its metadata gives no DOI or arXiv id and its title no words"
        )

    page = Page(
        path=path,
        sha256=sha256,
        text_meta=text_meta,
        reconciliation=[],
        warnings=region.warnings,
        header=header,
        title=title,
        abstract=abstract,
        open_access=open_access,
        snapshot=snapshot,
        nav_labels=nav_labels,
        claims_summary=summary,
        flag_summary=region.flag_summary,
        claims=region.claims,
        cites_note=cites_note,
        references=references,
        references_sort_label=references_sort_label,
        raw_references=parse_raw_references(raw_lines),
        raw_reference_lines=len(raw_lines),
        raw_reference_lines_stated=raw_stated,
        cited_by_sort_label=cited_by_sort_label,
        cited_by=cited_by,
        metadata=metadata,
        arxiv_id=arxiv_id,
        doi=doi,
        about=about,
        footer_links=footer_links,
        footer_text=footer_text,
    )
    return reconcile_page(page)
