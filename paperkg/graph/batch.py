"""The rows a batch of documents writes: what each write statement is sent, made of the
documents' assertions once their evidence is resolved to papers. Every loader writes these rows
(paperkg.load): transactions send them with UNWIND, the export writes them as CSV files. How a
work's properties fold from the statements about it (`precedence`, `fold`) has its home here too.
Needs no database."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from paperkg.graph.identity import RANK_SUBJECT, Evidence, Work
from paperkg.graph.rows import Assertions, Unit

T = TypeVar("T")


def chunks(items: Sequence[T], size: int) -> Iterator[Sequence[T]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


@dataclass(frozen=True)
class Pending:
    """A document to write."""

    assertions: Assertions


@dataclass(frozen=True)
class Batch:
    """Documents to write in one transaction, with the distinct evidence of their mentions.
    Preparing it needs no graph, so it is done while the previous batch is written."""

    documents: list[Pending]
    evidence: dict[Evidence, str]  # the distinct evidence, in Evidence.encode order, with its key


def prepare_batch(documents: Sequence[Pending]) -> Batch:
    evidence = {unit.evidence: unit.key for pending in documents for unit in pending.assertions.units}
    return Batch(list(documents), dict(sorted(evidence.items(), key=lambda item: item[0].encode())))


def document_row(a: Assertions) -> dict[str, Any]:
    return {
        "doc_id": a.doc_id,
        "path": a.path,
        "sha256": a.sha256,
        "kind": a.kind,
        "size_bytes": a.size_bytes,
        "paper_key": a.paper_key,
        "warnings": a.warnings,
    }


def unit_row(unit: Unit) -> dict[str, Any]:
    """What a MENTIONS relationship says about its mentions (UNIT_PROPERTIES but the precedence)."""
    row: dict[str, Any] = {
        "key": unit.key,
        "lines": unit.lines,
        "subject": unit.subject,
        "cited": unit.cited,
        "citing": unit.citing,
    }
    if unit.sources:
        row["sources"] = unit.sources
    return row


def batch_rows(
    documents: Sequence[Assertions], paper_of: Callable[[Unit], str]
) -> tuple[dict[str, list[dict[str, Any]]], dict[str, Counter]]:
    """The rows of each write statement for documents whose evidence is resolved to papers,
    and the rows per document."""
    counts: dict[str, Counter] = {}
    papers: list[dict[str, Any]] = []
    cites: dict[tuple[str, str], list[str]] = {}
    rows: dict[str, list[dict[str, Any]]] = {
        name: [] for name in ("write_claims", "write_sources", "write_claim_cites", "write_checks", "write_refers_to")
    }
    for a in documents:
        pid = [paper_of(unit) for unit in a.units]
        subject = pid[0]  # the first unit holds the document's own paper
        doc_papers = [
            {
                "paper_id": paper_id,
                "mention": {
                    "doc_id": a.doc_id,
                    "precedence": precedence(unit.rank, a.doc_id, unit.key),
                    "properties": unit.properties,
                    "unit": unit_row(unit),
                },
            }
            for unit, paper_id in zip(a.units, pid)
        ]
        doc_cites = sorted(
            {(subject, paper_id) for unit, paper_id in zip(a.units, pid) if unit.cited}
            | {(paper_id, subject) for unit, paper_id in zip(a.units, pid) if unit.citing}
            - {(paper_id, paper_id) for paper_id in pid}
        )
        doc_rows = {
            "write_claims": [dict(row, paper_id=subject, doc_id=a.doc_id) for row in a.claims],
            "write_sources": [dict(row, doc_id=a.doc_id) for row in a.sources],
            "write_claim_cites": [dict(row, doc_id=a.doc_id) for row in a.claim_cites],
            "write_checks": [dict(row, doc_id=a.doc_id) for row in a.checks],
            "write_refers_to": sorted(
                (
                    {"source_id": source_id, "paper_id": paper_id, "doc_id": a.doc_id}
                    for unit, paper_id in zip(a.units, pid)
                    for source_id in unit.sources
                ),
                key=lambda row: row["source_id"],
            ),
        }
        counts[a.doc_id] = Counter({"papers": len(set(pid)), "paper_cites": len(doc_cites)})
        counts[a.doc_id].update({name.removeprefix("write_"): len(r) for name, r in doc_rows.items()})
        papers.extend(doc_papers)
        for pair in doc_cites:
            cites.setdefault(pair, []).append(a.doc_id)
        for name, doc_part in doc_rows.items():
            rows[name].extend(doc_part)
    # Papers and their citations are shared between documents: one row per node or pair, so
    # no statement reads what an earlier row of the same statement wrote. Papers come first:
    # the other statements match them.
    return {
        "write_papers": combine_paper_rows(papers),
        "write_paper_cites": [{"citing": x, "cited": y, "doc_ids": docs} for (x, y), docs in cites.items()],
        **rows,
    }, counts


def combine_paper_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per paper with each statement about it (a document's unit), and their fold."""
    combined: dict[str, dict[str, Any]] = {}
    for row in rows:
        combined.setdefault(row["paper_id"], {"paper_id": row["paper_id"], "mentions": []})["mentions"].append(
            row["mention"]
        )
    for row in combined.values():
        # One statement is its own fold; sent once, it keeps the rows (and their packing) small.
        row["folded"] = None
        if len(row["mentions"]) > 1:
            folded: dict[str, tuple[str, Any]] = {}
            for mention in row["mentions"]:
                fold(folded, mention)
            row["folded"] = {key: value for key, (_, value) in folded.items()}
    return list(combined.values())


def precedence(rank: int, doc_id: str, key: str) -> str:
    """Where a document's statement about a work stands when the statements are folded into
    the work's properties: the best-ranked first (a document's own subject, then card items,
    references, raw reference strings), ties by document id, then by evidence key. Every fold
    takes the smallest (`fold`, cypher/refold_papers and cypher/refold_contested). Its parts
    are a digit, a SHA-256 and an evidence digest, fixed-width ASCII, so Python and Cypher
    order it alike."""
    if not (0 < rank <= RANK_SUBJECT and len(doc_id) == 64 and len(key) == 16):
        raise ValueError(f"no precedence for rank {rank}, doc_id {doc_id!r}, key {key!r}")
    return f"{RANK_SUBJECT - rank}{doc_id}{key}"


def fold(properties: dict[str, tuple[str, Any]], mention: dict[str, Any]) -> None:
    """refold_papers, one statement at a time: per property the statement of the smallest
    precedence wins. `properties` maps each property to (precedence, value) of its winner."""
    for name, value in mention["properties"].items():
        held = properties.get(name)
        if held is None or mention["precedence"] < held[0]:
            properties[name] = (mention["precedence"], value)


def contested_row(row: dict[str, Any], keys: list[str]) -> dict[str, Any]:
    """refold_contested's row for a paper of write_papers: the batch's best statement of each key."""
    best: dict[str, tuple[str, Any]] = {}
    for mention in row["mentions"]:
        fold(best, mention)
    return {
        "paper_id": row["paper_id"],
        "keys": [
            {"key": name, "precedence": held, "value": value} for name, (held, value) in best.items() if name in keys
        ],
    }


@dataclass
class GraphResolution:
    """Where a batch's evidence belongs, and what became of the nodes it met."""

    known: dict[Evidence, str]  # → paper_id, for evidence whose work did not change
    works: dict[Evidence, Work]  # the region's evidence, resolved anew
    reshaped: set[str]  # papers that gained or lost evidence of other nodes
    placed: dict[Evidence, str] = field(default_factory=dict)  # the region's evidence → its node before
    in_graph: set[str] = field(default_factory=set)  # the papers with a node once reshaped
    merged: int = 0
    split: int = 0

    def paper_of(self, unit: Unit) -> str:
        work = self.works.get(unit.evidence)
        return work.paper_id if work is not None else self.known[unit.evidence]

    def identity_rows(self) -> list[dict[str, Any]]:
        works = {work.paper_id: work for work in self.works.values()}
        return [
            {
                "paper_id": work.paper_id,
                "arxiv_id": work.arxiv_id,
                "doi": work.doi,
                "dois": work.dois or None,
                "fallback": work.fallback,
                # Evidence the graph does not hold yet, and evidence of another node that moves
                # here; evidence already OF this work's node is left as it is.
                "new_evidence": [_evidence_row(e) for e in work.evidence if e not in self.placed],
                "moved_evidence": [
                    _evidence_row(e) for e in work.evidence if self.placed.get(e, work.paper_id) != work.paper_id
                ],
            }
            for _, work in sorted(works.items())
        ]


def _evidence_row(e: Evidence) -> dict[str, Any]:
    return {"key": e.key, **e.properties()}
