"""The one grammar of paper identifiers: what an arXiv id and a DOI look like, and their normal
forms. Documents (cards, pages, raw references) and what a person types (`paper` parameters)
are read by the same rules."""

from __future__ import annotations

import re

# New-style (`2402.06618`) or old-style (`math.AG/0601001`, `hep-th/9901001`) arXiv id.
ARXIV_ID = r"\d{4}\.\d{4,5}|[a-z][a-z-]*(?:\.[a-z]{2})?/\d{7}"
ARXIV_DOI_PREFIX = "10.48550/arxiv."
DOI = r"10\.\d{4,9}/\S+"

_ARXIV_FORMS = re.compile(
    rf"(?:arxiv:\s*|(?:https?://)?(?:www\.|export\.)?arxiv\.org/(?:abs|pdf|html)/|10\.48550/arxiv\.)?"
    rf"(?P<id>{ARXIV_ID})(?:v\d+)?(?:\.pdf)?/?",
    re.IGNORECASE,
)
_DOI_FORMS = re.compile(rf"(?:doi:\s*|(?:https?://)?(?:dx\.)?doi\.org/)?(?P<doi>{DOI})", re.IGNORECASE)


def normalise_arxiv_id(value: str | None) -> str | None:
    """`arXiv:2005.00719v2`, `https://arxiv.org/abs/2005.00719`, `10.48550/arXiv.2005.00719` →
    `2005.00719`; None if the value is not an arXiv id."""
    match = _ARXIV_FORMS.fullmatch(value.strip()) if value else None
    return match["id"] if match else None


def normalise_doi(value: str | None) -> str | None:
    """A lower-cased DOI without `doi:` or resolver prefixes (a sentence's full stop dropped);
    None when the value is not a DOI."""
    match = _DOI_FORMS.fullmatch(value.strip()) if value else None
    return match["doi"].rstrip(".").lower() if match else None


def split_doi(doi: str | None, arxiv_id: str | None) -> tuple[str | None, str | None]:
    """(arxiv_id, doi) in normal form: an arXiv DOI (`10.48550/arxiv.<id>`) is an arXiv id, not a DOI."""
    doi = normalise_doi(doi)
    if doi and doi.startswith(ARXIV_DOI_PREFIX):
        return normalise_arxiv_id(arxiv_id) or normalise_arxiv_id(doi), None
    return normalise_arxiv_id(arxiv_id), doi
