"""Validated models of the two document kinds (FORMAT.md), as the graph writer consumes them.

Every model forbids unknown fields. Line numbers are 1-based physical lines of the source file.
"""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

FlagKind = Literal["probably_not_substantial", "two_claims_in_one", "quote_partly_states"]
FlagReason = Literal["conclusions_may_not_depend", "too_vague", "no_reason_given"]
SupportNote = Literal["relies_without_support", "assumption"]
_M = TypeVar("_M", bound=BaseModel)


class _Model(BaseModel):
    """Base of every model here: unknown fields are an error, in every subclass."""

    model_config = ConfigDict(extra="forbid")


_new = object.__new__
# BaseModel's slot descriptors, called directly: quicker than object.__setattr__, which looks
# each name up on the model's class first.
_set_dict = BaseModel.__dict__["__dict__"].__set__
_set_fields_set = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_set_extra = BaseModel.__dict__["__pydantic_extra__"].__set__
_set_private = BaseModel.__dict__["__pydantic_private__"].__set__


def built(model: type[_M], fields: dict[str, Any]) -> _M:
    """A model of values the parser built itself, every field given in the model's order, as
    validation would make it but without validating again: the many small records of a
    document cost more to validate than to parse. A document as a whole (Card, Page) is still
    validated; tests/test_parse_built.py revalidates every parsed model from plain data."""
    instance = _new(model)
    _set_dict(instance, fields)
    _set_fields_set(instance, set(fields))
    _set_extra(instance, None)
    _set_private(instance, None)
    return instance


def built_all(model: type[_M], records: list[dict[str, Any]]) -> list[_M]:
    """`built` of each record, in one call: a list's records are many and small."""
    instances = []
    for fields in records:
        instance = _new(model)
        _set_dict(instance, fields)
        _set_fields_set(instance, set(fields))
        _set_extra(instance, None)
        _set_private(instance, None)
        instances.append(instance)
    return instances


# ---------------------------------------------------------------- common


class TextMeta(_Model):
    """How the raw bytes were laid out before normalisation."""

    line_endings: Literal["lf", "crlf", "cr", "mixed", "none"]  # "none": a single line without a break
    bom: bool
    final_newline: bool


class ReconciliationItem(_Model):
    """A total the document states, set against what the parser counted."""

    what: str
    stated: int | None
    parsed: int | None
    ok: bool
    note: str | None = None


class _Document(_Model):
    path: str
    sha256: str  # of the raw bytes
    text_meta: TextMeta
    reconciliation: list[ReconciliationItem]
    warnings: list[str]  # one human-readable line per mismatch or oddity


# ---------------------------------------------------------------- card


class CardItem(_Model):
    """`- [<title>](https://…/paper/<arxiv id>/) (<yyyy>)`"""

    title: str
    arxiv_id: str
    year: int  # publication year; may differ from the id's prefix
    url: str
    line: int


class CardList(_Model):
    """A `## Builds on` / `## Built on by` section: the first `shown` of `total`, most cited first."""

    shown: int
    total: int
    items: list[CardItem]
    line: int  # the heading


class Card(_Document):
    kind: Literal["card"] = "card"
    title: str
    arxiv_id: str
    arxiv_url: str
    html_url: str
    cited_by_count: int | None  # key fact "Cited by N papers in the map"
    data_through: date | None
    builds_on_in_map: int | None  # key fact "Builds on X of its Y references": X
    reference_count: int | None  # … and Y
    first_posted: date | None
    builds_on: CardList | None
    built_on_by: CardList | None
    abstract: str


# ---------------------------------------------------------------- page: claims


class CitedSource(_Model):
    """One `- cites <key>` entry of a claim, with what B.4's rule makes of it."""

    key: str  # as printed, without the ` source` suffix
    first_author: str | None  # None for a bare-year key such as `[2023]`
    year: int | None
    year_suffix: str | None
    # "<author part>, <year><suffix>", so `X et al. (2024)` and `X et al., 2024` agree; `[2023]` → "2023".
    key_norm: str
    matched: bool  # printed with the ` source` suffix
    checked: bool
    verdict: Literal["supported", "not_supported"] | None
    confidence: float | None
    rationale: str | None
    ambiguous: bool  # checked by B.4's order-of-listing pick among more candidates than checks
    line: int


class Claim(_Model):
    """A claim from the main list, the flagged list, or only from the support notes (`origin`).

    `line` is where its entry starts: the header line for listed claims, the note line otherwise.
    """

    text: str
    quotes: list[str]  # without the surrounding “ ”
    kind: Literal["Premise", "Interpretation"] | None
    basis: Literal["citation", "none given", "reasoning"] | None
    section: str | None
    substantial: bool | None
    sources_checked: int | None  # N of "N of M sources checked"
    sources_total: int | None  # M
    flags: list[FlagKind]
    flag_reasons: list[FlagReason]
    support_note: SupportNote | None
    support_note_line: int | None
    rests_on_assumption: bool
    also_stated_in: list[str]
    also_stated_boosted: bool
    origin: Literal["main", "flagged", "support_note"]
    line: int
    sources: list[CitedSource]


class ClaimsSummary(_Model):
    """`67 of 249 cited sources checked · 33 supported · 0 flagged · accuracy not yet measured`"""

    checked: int
    cited: int
    supported: int
    flagged: int
    accuracy: str
    line: int


class FlagCount(_Model):
    """A flag-summary line: `- Probably not a substantial claim. 85`"""

    flag: FlagKind
    count: int
    line: int


# ---------------------------------------------------------------- page: works


class Reference(_Model):
    """A structured entry of `Cites` or `Cited by`: optional title line, then the author line."""

    title: str | None  # without the Self-citation / Preprint markers
    authors: list[str]  # "Surname, I." each; organisations kept whole
    authors_text: str
    et_al: bool
    year: int | None
    venue: str | None
    doi: str | None
    cited_by_count: int | None
    self_citation: bool
    preprint: bool
    line: int  # first line of the entry (the title line when there is one)


class RawFields(_Model):
    """What can be read out of one reference string, best effort."""

    authors: list[str]
    title: str | None
    year: int | None
    venue: str | None
    url: str | None
    doi: str | None
    arxiv_id: str | None


class RawReference(RawFields):
    """A printed-but-unlinked reference string, with best-effort fields pulled out of it."""

    text: str  # verbatim, continuation lines joined with a space, link labels removed
    link_labels: list[str]  # ` · DOI`, ` · arXiv` … suffixes, in printed order
    orphan_fragment: bool  # the tail of an entry whose head is missing
    line: int
    continuation_lines: list[int]


# ---------------------------------------------------------------- page: the rest


class PageHeader(_Model):
    """Line 1: `<registry note>; A of the B references it cites were found …; C of the D sources … checked …`"""

    registry_note: str
    references_found: int
    references_total: int
    sources_checked: int
    sources_total: int


class Limitation(_Model):
    kind: Literal["Stated", "Evident"]
    text: str


class Snapshot(_Model):
    """The model-written `AI snapshot` under `Overview`."""

    provenance: str | None  # "Written from the paper’s full text."
    tldr: str | None
    key_findings: list[str]
    methods: list[str]
    limitations: list[Limitation]
    disclaimer: str | None  # "Model-written summary. …"


class MetadataEntry(_Model):
    key: str
    values: list[str]
    line: int


class About(_Model):
    """`About these checks`: the prose, and what can be read out of it."""

    extraction_date: date | None
    claim_model: str | None
    claim_prompt: str | None
    label_model: str | None
    check_model: str | None
    prose: list[str]


class Page(_Document):
    kind: Literal["page"] = "page"
    header: PageHeader
    title: str
    abstract: str | None
    open_access: bool
    snapshot: Snapshot | None
    nav_labels: list[str]  # the `Integrity signals` navigation labels
    claims_summary: ClaimsSummary
    flag_summary: list[FlagCount]
    claims: list[Claim]
    cites_note: str | None  # e.g. "Part of this paper’s reference list could not be split …"
    references: list[Reference]
    # FORMAT.md B.8: this label sits between the structured and the raw list; which it sorts is unclear.
    references_sort_label: str | None
    raw_references: list[RawReference]
    raw_reference_lines: int  # physical `- ` lines parsed
    raw_reference_lines_stated: int | None  # "Research works printed but not linked: N"
    cited_by_sort_label: str | None
    cited_by: list[Reference]
    metadata: list[MetadataEntry]
    arxiv_id: str | None  # the page's own, from metadata
    doi: str | None  # from metadata, when it has a DOI key
    about: About
    footer_links: list[str]
    footer_text: list[str]  # lines after the footer links


Document = Annotated[Card | Page, Field(discriminator="kind")]
