"""Paper identity: which mentions are one work, and which existing Paper nodes they are.

Resolution order (MODEL.md "Paper identity"): arXiv id, then DOI (case-insensitive), then
normalised title with the years agreeing within one year where both are known. Two
mentions never merge when they carry different arXiv ids or, unless both carry the same
arXiv id, different DOIs.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Any

from .normalise import title_norm

ARXIV_NEW = re.compile(r"(\d{4}\.\d{4,5})(?:v\d+)?$")
ARXIV_OLD = re.compile(r"([a-z\-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?$")
ARXIV_DOI_PREFIX = "10.48550/arxiv."

# Which mention of a work may set its properties: a document's own subject outranks a list
# item, which outranks a reference entry, which outranks a raw reference string.
RANK_SUBJECT, RANK_CARD_ITEM, RANK_REFERENCE, RANK_RAW_REFERENCE = 4, 3, 2, 1


def normalise_arxiv_id(value: str | None) -> str | None:
    """`arXiv:2005.00719v2`, `https://arxiv.org/abs/2005.00719` → `2005.00719`; None if not an id."""
    if not value:
        return None
    text = value.strip()
    for prefix in ("https://arxiv.org/abs/", "http://arxiv.org/abs/", "https://arxiv.org/pdf/", "arxiv:"):
        if text.lower().startswith(prefix):
            text = text[len(prefix):]
    if text.lower().startswith(ARXIV_DOI_PREFIX):
        text = text[len(ARXIV_DOI_PREFIX):]
    text = text.removesuffix(".pdf").strip("/")
    match = ARXIV_NEW.fullmatch(text) or ARXIV_OLD.fullmatch(text)
    return match.group(1) if match else None


def normalise_doi(value: str | None) -> str | None:
    """Lower-cased DOI without `doi:` or resolver prefixes; None when it is not a DOI."""
    if not value:
        return None
    text = value.strip()
    for prefix in ("https://doi.org/", "http://doi.org/", "https://dx.doi.org/", "doi:"):
        if text.lower().startswith(prefix):
            text = text[len(prefix):]
    text = text.strip().rstrip(".").lower()
    return text if text.startswith("10.") and "/" in text else None


def split_doi(doi: str | None, arxiv_id: str | None) -> tuple[str | None, str | None]:
    """(arxiv_id, doi): an arXiv DOI (`10.48550/arxiv.<id>`) is an arXiv id, not a DOI."""
    doi = normalise_doi(doi)
    if doi and doi.startswith(ARXIV_DOI_PREFIX):
        return arxiv_id or normalise_arxiv_id(doi), None
    return normalise_arxiv_id(arxiv_id) if arxiv_id else None, doi


@dataclass
class Mention:
    """One document's mention of a work, with what it says about it."""

    arxiv_id: str | None
    doi: str | None
    title: str | None
    year: int | None
    rank: int
    properties: dict[str, Any] = field(default_factory=dict)
    # Identifies an entry that has no id and no title (for example `(2019) · Cited by 601`
    # with no DOI): such a work is only ever itself.
    fallback: str | None = None

    @property
    def title_norm(self) -> str | None:
        return title_norm(self.title) or None if self.title else None


@dataclass
class Identity:
    """The identifiers of a work, gathered from all the mentions and nodes found to be it."""

    arxiv_ids: set[str] = field(default_factory=set)
    dois: set[str] = field(default_factory=set)
    titles: set[tuple[str, int | None]] = field(default_factory=set)
    fallbacks: set[str] = field(default_factory=set)

    @classmethod
    def of(cls, arxiv_id: str | None, doi: str | None, norm: str | None, year: int | None,
           fallback: str | None = None) -> "Identity":
        return cls({arxiv_id} - {None}, {doi} - {None}, {(norm, year)} if norm else set(),
                   {fallback} - {None})

    def conflicts(self, other: "Identity") -> bool:
        # The arXiv id decides first: one arXiv id is one work (and one node: arxiv_id is
        # unique) even where DOIs disagree, as when a raw reference glues a second entry's DOI
        # to the first one's arXiv URL. Keeping such mentions apart made the second node's
        # arxiv_id violate the constraint and rejected the whole document.
        if self.arxiv_ids and other.arxiv_ids:
            return self.arxiv_ids != other.arxiv_ids
        return bool(self.dois and other.dois and self.dois != other.dois)

    def same_work(self, other: "Identity") -> bool:
        if self.conflicts(other):
            return False
        if self.arxiv_ids & other.arxiv_ids or self.dois & other.dois or self.fallbacks & other.fallbacks:
            return True
        return any(a == b and (y is None or z is None or abs(y - z) <= 1)
                   for a, y in self.titles for b, z in other.titles)

    def copy(self) -> "Identity":
        return Identity(set(self.arxiv_ids), set(self.dois), set(self.titles), set(self.fallbacks))

    def absorb(self, other: "Identity") -> None:
        self.arxiv_ids |= other.arxiv_ids
        self.dois |= other.dois
        self.titles |= other.titles
        self.fallbacks |= other.fallbacks

    def new_paper_id(self) -> str:
        """The key for a new node: readable where an id is known, a title hash otherwise."""
        if self.arxiv_ids:
            return f"arxiv:{min(self.arxiv_ids)}"
        if self.dois:
            return f"doi:{min(self.dois)}"
        if self.titles:
            norm, year = min(self.titles, key=lambda t: (t[0], t[1] or 0))
            return "title:" + _digest(f"{norm}|{year or ''}")
        return "ref:" + _digest(min(self.fallbacks))


def _digest(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:16]


def mention_identity(mention: Mention) -> Identity:
    return Identity.of(mention.arxiv_id, mention.doi, mention.title_norm, mention.year, mention.fallback)


class WorkIndex:
    """Works found so far, looked up by any of their identifiers (arXiv id, DOI, title, fallback).

    A work that a later mention shows to be another one is absorbed into it (union-find), so
    the index holds one identity per work and a mention needs only the number `add` gave it.
    """

    def __init__(self) -> None:
        self.works: list[Identity | None] = []  # None: absorbed into another work
        self._into: list[int] = []  # the work each work was absorbed into (itself while it lives)
        self._by_key: dict[tuple[str, str], set[int]] = {}

    def add(self, identity: Identity) -> int:
        """File a mention under the work it belongs to (merging works it shows are one); its number."""
        keys = _keys(identity)
        found = sorted({work for key in keys for work in self._by_key.get(key, ())
                        if self.works[work] is not None and self.works[work].same_work(identity)})
        if not found:
            self.works.append(identity)
            self._into.append(len(self._into))
            target = len(self.works) - 1
        else:
            target = found[0]
            self.works[target].absorb(identity)
            for other in found[1:]:
                if self.works[target].conflicts(self.works[other]):
                    continue
                keys += _keys(self.works[other])
                self.works[target].absorb(self.works[other])
                self.works[other], self._into[other] = None, target
        # The target's other keys already lead to it: only what it just gained is filed.
        for key in keys:
            self._by_key.setdefault(key, set()).add(target)
        return target

    def find(self, work: int) -> int:
        """The work a number given by `add` now belongs to."""
        while self._into[work] != work:
            self._into[work] = self._into[self._into[work]]
            work = self._into[work]
        return work


def _keys(identity: Identity) -> list[tuple[str, str]]:
    return ([("arxiv", a) for a in identity.arxiv_ids] + [("doi", d) for d in identity.dois]
            + [("title", t) for t, _ in identity.titles] + [("fallback", f) for f in identity.fallbacks])


def group_mentions(mentions: list[Mention]) -> list[tuple[Identity, list[int]]]:
    """Partition mentions into works: (identity, mention indexes), in order of first mention."""
    index = WorkIndex()
    added = [index.add(mention_identity(mention)) for mention in mentions]
    members: dict[int, list[int]] = {}
    for position, work in enumerate(added):
        members.setdefault(index.find(work), []).append(position)
    return [(index.works[work], positions) for work, positions in sorted(members.items())]
