"""Paper identity: which mentions are one work. Every identity rule lives here.

A mention's identity is its `Evidence`: the arXiv id, DOI, normalised title, year and fallback
key it states. `resolve` partitions a set of evidence into works. It looks at the set only,
never at the order in which documents came, so ingestion (batch by batch against the graph),
the admin-import export (the whole corpus at once) and any history of retractions give the
same works. Every rule joins evidence through an identifier they share, so `works_of` resolves
one connected class of evidence at a time (memory for one class's working state, not the
whole set's) and `resolve` is built on it. The rules, in order (MODEL.md "Paper identity"):

1. **arXiv id.** Evidence with the same arXiv id is one work; two arXiv ids are never one work.
2. **DOI.** A DOI stated together with exactly one arXiv id belongs to that work (a preprint
   and its published version). A DOI stated with several arXiv ids (a glued raw reference)
   belongs to none of them; its DOI-only evidence is a work of its own. Otherwise evidence
   with the same DOI is one work.
3. **Title and year.** Per normalised title, works and title-only evidence whose years are
   within one (single linkage) are one work, unless that would join two works with different
   arXiv ids or different DOIs: then nothing joins by that title except title-only evidence
   that fits exactly one of them.
4. **Yearless titles.** Evidence with a title and no year joins the one work with that title;
   where several works carry it, it joins none of them (a work of its own).
5. **Fallback.** An entry with no id and no title is only ever itself.

A work's `paper_id` is a function of its evidence: `arxiv:<id>`, else `doi:<smallest DOI>`,
else a hash of its title and earliest year, else a hash of its fallback key.
"""

from __future__ import annotations

import hashlib
from array import array
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from paperkg.parse.normalise import title_norm

# Which mention of a work may set its properties: a document's own subject outranks a list
# item, which outranks a reference entry, which outranks a raw reference string.
RANK_SUBJECT, RANK_CARD_ITEM, RANK_REFERENCE, RANK_RAW_REFERENCE = 4, 3, 2, 1


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
    line: int | None = None

    @property
    def evidence(self) -> Evidence:
        norm = title_norm(self.title) or None if self.title else None
        # The year only takes part through a title (rule 3), so only titled evidence keeps it.
        return Evidence(
            self.arxiv_id,
            self.doi,
            norm,
            self.year if norm else None,
            None if (self.arxiv_id or self.doi or norm) else self.fallback,
        )


_SEPARATOR = "\x1f"


@dataclass(frozen=True, slots=True)
class Evidence:
    """What one mention states about which work it is. Equal evidence always resolves alike,
    so resolution works on the set of distinct evidence, never on each mention."""

    arxiv_id: str | None
    doi: str | None
    title_norm: str | None
    year: int | None
    fallback: str | None = None

    def __reduce__(self) -> tuple[type[Evidence], tuple[Any, ...]]:
        # Pickled as its fields: a slotted dataclass's own state methods look its fields up for
        # every instance, and the offline export spools millions of evidence.
        return Evidence, (self.arxiv_id, self.doi, self.title_norm, self.year, self.fallback)

    def encode(self) -> str:
        return _SEPARATOR.join(
            "" if value is None else str(value)
            for value in (self.arxiv_id, self.doi, self.title_norm, self.year, self.fallback)
        )

    @property
    def key(self) -> str:
        """A short, stable name for this evidence (MENTIONS and Evidence nodes carry it)."""
        return _digest(self.encode())

    def properties(self) -> dict[str, Any]:
        """Its Evidence node's properties but the key (contract.NODES["Evidence"])."""
        return {
            "arxiv_id": self.arxiv_id,
            "doi": self.doi,
            "title_norm": self.title_norm,
            "year": self.year,
            "fallback": self.fallback,
        }


@dataclass
class Work:
    """One work of a resolution: its key, its identifiers and the evidence that is it."""

    paper_id: str
    arxiv_id: str | None
    dois: list[str]
    fallback: str | None
    evidence: list[Evidence]

    @property
    def doi(self) -> str | None:
        return self.dois[0] if self.dois else None


class _Sets:
    """Union-find over hashable items."""

    def __init__(self) -> None:
        self.parent: dict[Any, Any] = {}

    def add(self, item: Any) -> None:
        self.parent.setdefault(item, item)

    def find(self, item: Any) -> Any:
        root = item
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[item] != root:
            self.parent[item], item = root, self.parent[item]
        return root

    def union(self, a: Any, b: Any) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            # The smaller root wins, so the result does not depend on the order of unions.
            if _order(rb) < _order(ra):
                ra, rb = rb, ra
            self.parent[rb] = ra

    def groups(self) -> dict[Any, list[Any]]:
        out: dict[Any, list[Any]] = {}
        for item in self.parent:
            out.setdefault(self.find(item), []).append(item)
        return out


def _order(item: tuple) -> tuple:
    return tuple("" if part is None else str(part) for part in item)


def _near(years: Iterable[int], others: Iterable[int]) -> bool:
    return any(abs(y - z) <= 1 for y in years for z in others)


def resolve(evidence: Iterable[Evidence]) -> dict[Evidence, Work]:
    """Partition evidence into works (the module's rules); each evidence's work."""
    return {e: work for work in works_of(evidence) for e in work.evidence}


def works_of(evidence: Iterable[Evidence]) -> Iterator[Work]:
    """`resolve`'s works, one connected class of evidence at a time.

    Every rule joins evidence only through an identifier they share (an arXiv id, a DOI, a
    title, or a fallback key of evidence that has none of the others), and every test a rule
    makes looks only at evidence reached that way. So evidence sharing no identifier with the
    rest has the same works alone as among the rest, and each connected class is resolved on
    its own: memory holds the classes' index (integers) and one class's working state, not
    the working state of the whole set."""
    items = list(evidence if isinstance(evidence, (set, frozenset)) else set(evidence))
    del evidence  # the caller's set may go: the list holds the evidence
    for members in _connected(items):
        yield from _resolve_connected([items[index] for index in members])


def _connected(items: list[Evidence]) -> Iterator[list[int]]:
    """The indices of `items` in classes linked by a shared identifier, each class in order."""
    parent = array("q", range(len(items)))

    def root(index: int) -> int:
        while parent[index] != index:
            parent[index] = parent[parent[index]]
            index = parent[index]
        return index

    first: tuple[dict[str, int], ...] = ({}, {}, {}, {})  # arXiv id, DOI, title, fallback → an index
    for index, e in enumerate(items):
        identifiers = [(kind, value) for kind, value in enumerate((e.arxiv_id, e.doi, e.title_norm)) if value]
        for kind, value in identifiers or [(3, e.fallback or "")]:  # rule 5's class: no id, no title
            other = first[kind].setdefault(value, index)
            if other != index:
                a, b = root(index), root(other)
                if a != b:
                    parent[max(a, b)] = min(a, b)
    del first
    roots = array("q", (root(index) for index in range(len(items))))
    order = sorted(range(len(items)), key=roots.__getitem__)
    start = 0
    for end in range(1, len(order) + 1):
        if end == len(order) or roots[order[end]] != roots[order[start]]:
            yield order[start:end]
            start = end


def _resolve_connected(items: Collection[Evidence]) -> Iterator[Work]:
    """The rules over one set of evidence (any set: `works_of` gives it one connected class)."""
    # -- rules 1 and 2: identifier classes. A class is ("a", arXiv id), ("d", DOI) or ("f", fallback).
    arxiv_of_doi: dict[str, set[str]] = {}
    for e in items:
        if e.arxiv_id and e.doi:
            arxiv_of_doi.setdefault(e.doi, set()).add(e.arxiv_id)
    class_of: dict[Evidence, tuple] = {}
    dois_of: dict[tuple, set[str]] = {}
    for e in items:
        owners = arxiv_of_doi.get(e.doi, set()) if e.doi else set()
        if e.arxiv_id:
            cls: tuple | None = ("a", e.arxiv_id)
            if e.doi and owners == {e.arxiv_id}:
                dois_of.setdefault(cls, set()).add(e.doi)
        elif e.doi:
            cls = ("a", next(iter(owners))) if len(owners) == 1 else ("d", e.doi)
            dois_of.setdefault(cls, set()).add(e.doi)
        elif e.title_norm:
            cls = None  # title-only: rules 3 and 4
        else:
            cls = ("f", e.fallback or "")
        if cls is not None:
            class_of[e] = cls
    sets = _Sets()
    for cls in class_of.values():
        sets.add(cls)

    def item_of(e: Evidence) -> tuple:
        """Its class, or for title-only evidence its ("y", title, year) or ("n", title) item."""
        return class_of.get(e) or (("y", e.title_norm, e.year) if e.year is not None else ("n", e.title_norm))

    def conflicting(classes: Iterable[tuple]) -> bool:
        arxiv_ids = {c[1] for c in classes if c[0] == "a"}
        doi_owners = {c for c in classes if c[0] == "d" or dois_of.get(c)}
        return len(arxiv_ids) > 1 or len(doi_owners) > 1

    # -- rule 3: per title, dated classes and dated title-only evidence (("y", title, year) items).
    dated: dict[str, dict[tuple, set[int]]] = {}  # title → item → years
    yearless: dict[str, set[tuple]] = {}  # title → classes and ("n", title) items with no year for it
    for e in items:
        if not e.title_norm:
            continue
        item = item_of(e)
        if e.year is not None:
            dated.setdefault(e.title_norm, {}).setdefault(item, set()).add(e.year)
        else:
            yearless.setdefault(e.title_norm, set()).add(item)
    for title in sorted(dated):
        found = dated[title]
        for item in found:
            sets.add(item)
        for component in _linked(found):
            classes = [item for item in component if item[0] != "y"]
            if not conflicting(classes):
                first = min(component, key=_order)
                for item in component:
                    sets.union(first, item)
                continue
            # Contested: title-only evidence joins the one class it fits; the rest stay apart.
            free = []
            for item in component:
                if item[0] != "y":
                    continue
                fits = [c for c in classes if _near(found[item], found[c])]
                if len(fits) == 1:
                    sets.union(fits[0], item)
                else:
                    free.append(item)
            for group in _linked({item: found[item] for item in free}):
                for item in group:
                    sets.union(group[0], item)
    # A join through one title may meet another through a second title: where the result joins
    # two arXiv ids or two DOIs, its classes stay apart (title-only evidence follows rule 3).
    for members in sets.groups().values():
        classes = [m for m in members if m[0] != "y"]
        if len(classes) > 1 and conflicting(classes):
            for member in members:
                sets.parent[member] = member

    # -- rule 4: yearless titles join the one work that carries the title.
    classes_of: dict[Any, set[tuple]] = {}  # root → the classes of its work
    for member, root in ((m, sets.find(m)) for m in list(sets.parent)):
        if member[0] != "y":
            classes_of.setdefault(root, set()).add(member)

    def works_with(title: str) -> set[Any]:
        return {sets.find(item) for item in dated.get(title, {})}

    for title in sorted(yearless):
        for item in sorted((i for i in yearless[title] if i[0] != "n"), key=_order):
            if item not in sets.parent:
                sets.add(item)
                classes_of[item] = {item}
            own = sets.find(item)
            targets = works_with(title) - {own}
            if len(targets) == 1:
                target = next(iter(targets))
                joined = classes_of.get(target, set()) | classes_of.get(own, set())
                if not conflicting(joined):
                    sets.union(target, item)
                    classes_of[sets.find(item)] = joined
    for title in sorted(yearless):
        item = ("n", title)
        if item not in yearless[title]:
            continue
        carriers = works_with(title) | {sets.find(c) for c in yearless[title] if c[0] != "n"}
        sets.add(item)
        if len(carriers) == 1:
            sets.union(next(iter(carriers)), item)

    # -- the works
    members_of = sets.groups()
    evidence_of: dict[Any, list[Evidence]] = {}
    for e in items:
        evidence_of.setdefault(sets.find(item_of(e)), []).append(e)
    for root, found in evidence_of.items():
        classes = members_of[root]
        arxiv_ids = sorted(c[1] for c in classes if c[0] == "a")
        dois = sorted({d for c in classes for d in dois_of.get(c, ())})
        fallbacks = sorted(c[1] for c in classes if c[0] == "f")
        work = Work(
            _paper_id(arxiv_ids, dois, found, fallbacks),
            arxiv_ids[0] if arxiv_ids else None,
            dois,
            fallbacks[0] if fallbacks else None,
            sorted(found, key=Evidence.encode),
        )
        yield work


def _linked(found: dict[tuple, set[int]]) -> list[list[tuple]]:
    """Single-linkage groups of items whose years are within one, each sorted, in order."""
    sets = _Sets()
    ordered = sorted(found, key=_order)
    for item in ordered:
        sets.add(item)
    for i, a in enumerate(ordered):
        for b in ordered[i + 1 :]:
            if _near(found[a], found[b]):
                sets.union(a, b)
    return sorted((sorted(group, key=_order) for group in sets.groups().values()), key=lambda g: _order(g[0]))


def _paper_id(arxiv_ids: list[str], dois: list[str], evidence: list[Evidence], fallbacks: list[str]) -> str:
    if arxiv_ids:
        return f"arxiv:{arxiv_ids[0]}"
    if dois:
        return f"doi:{dois[0]}"
    titled = [e for e in evidence if e.title_norm]
    if titled:
        title = min(e.title_norm for e in titled)
        years = [e.year for e in titled if e.year is not None]
        return "title:" + _digest(f"{title}|{min(years) if years else ''}")
    return "ref:" + _digest(min(fallbacks) if fallbacks else "")


def _digest(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:16]


def identifier_keys(evidence: Iterable[Evidence]) -> dict[str, list[str]]:
    """The identifiers evidence can meet other evidence by: each arXiv id, DOI, title, fallback."""
    keys: dict[str, set[str]] = {"arxiv_ids": set(), "dois": set(), "titles": set(), "fallbacks": set()}
    for e in evidence:
        for name, value in (
            ("arxiv_ids", e.arxiv_id),
            ("dois", e.doi),
            ("titles", e.title_norm),
            ("fallbacks", e.fallback),
        ):
            if value:
                keys[name].add(value)
    return {name: sorted(values) for name, values in keys.items()}
