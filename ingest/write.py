"""Writing documents' assertions to Neo4j: one managed transaction per batch of documents.

Inside the transaction: retract what changed documents asserted before, resolve paper
identity against the graph (merging nodes a batch shows to be one work), then write rows
with `UNWIND $rows ... MERGE` on constrained keys. The driver retries the whole function
on transient errors, so it only reads what it writes in the same transaction.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from neo4j import ManagedTransaction, Result

from paperkg.statements import statement

from .identity import Identity, group_mentions
from .rows import SUBJECT, Assertions

T = TypeVar("T")
ROWS_PER_STATEMENT = 5000
# What paper_candidates gives of each node, after `work` and `how`.
CANDIDATE_COLUMNS = ("paper_id", "arxiv_id", "doi", "title_norm", "year", "fallback")


class Rows(list):
    """A statement's rows, shown in a log by their number. The driver formats every parameter
    for its debug log even when that log is off (neo4j 6.4, `Bolt5x5.run`): a batch's rows
    took 4% of an ingest to format."""

    def __repr__(self) -> str:
        return f"<{len(self)} rows>"


def chunks(items: Sequence[T], size: int) -> Iterator[Sequence[T]]:
    for start in range(0, len(items), size):
        yield items[start:start + size]


@dataclass(frozen=True)
class Pending:
    """A document to write, and whether an earlier version of it is in the graph."""

    assertions: Assertions
    changed: bool


@dataclass(frozen=True)
class Batch:
    """Documents to write in one transaction, with what is known of them before it: which of
    their mentions are one work (in order of first mention) and the keys to look those works
    up by. Preparing it needs no graph, so it is done while the previous batch is written."""

    documents: list[Pending]
    works: list[tuple[Identity, list[int]]]
    lookup: dict[str, list[dict[str, Any]]]


def prepare_batch(documents: Sequence[Pending]) -> Batch:
    works = group_mentions([mention for pending in documents for mention in pending.assertions.mentions])
    return Batch(list(documents), works, _candidate_keys([identity for identity, _ in works]))


def write_batch(tx: ManagedTransaction, batch: Batch, run_id: str) -> dict[str, Counter]:
    """Write a batch of documents; returns the rows written per document."""
    touched: set[str] = set()  # papers whose properties must be folded again
    for pending in batch.documents:
        if pending.changed:
            touched |= retract_document(tx, pending.assertions.doc_id)
    documents = [p.assertions for p in batch.documents]
    paper_of, survivors, withheld = _resolve_papers(tx, batch)
    touched |= survivors  # a merge moved statements onto them
    # From here on no statement waits for the one before it: the server runs each while the
    # client builds and sends the next one's rows. Only write_papers' result is read back.
    _send(tx, "write_document", [document_row(a) for a in documents], run_id=run_id)
    rows, counts = batch_rows(documents, paper_of, withheld)
    paper_rows = rows.pop("write_papers")
    written = _send(tx, "write_papers", paper_rows)
    for name, all_rows in rows.items():
        _send(tx, name, all_rows)
    contested = {record["paper_id"]: record["contested_keys"] for result in written for record in result}
    refold_papers(tx, touched)
    _send(tx, "refold_contested", [_contested_row(row, contested[row["paper_id"]]) for row in paper_rows
                                   if row["paper_id"] in contested and row["paper_id"] not in touched])
    return counts


def document_row(a: Assertions) -> dict[str, Any]:
    return {"doc_id": a.doc_id, "path": a.path, "sha256": a.sha256, "kind": a.kind, "size_bytes": a.size_bytes,
            "paper_key": a.paper_key, "warnings": a.warnings}


def batch_rows(documents: Sequence[Assertions], paper_of: Callable[[int, int], str],
               withheld: set[tuple[str, str]] = frozenset()
               ) -> tuple[dict[str, list[dict[str, Any]]], dict[str, Counter]]:
    """The rows of each write statement for documents whose mentions are resolved to papers
    (``paper_of(document number, mention index)``), and the rows per document. A (paper_id,
    DOI) pair in `withheld` is a DOI another paper holds: that paper's rows leave it out."""
    counts: dict[str, Counter] = {}
    papers: list[dict[str, Any]] = []
    cites: dict[tuple[str, str], list[str]] = {}
    rows: dict[str, list[dict[str, Any]]] = {name: [] for name in (
        "write_claims", "write_sources", "write_claim_cites", "write_checks", "write_refers_to")}
    for doc_number, a in enumerate(documents):
        pid = [paper_of(doc_number, m) for m in range(len(a.mentions))]
        doc_papers = _paper_rows(a, pid, withheld)
        doc_cites = sorted({(pid[x], pid[y]) for x, y in a.cites if pid[x] != pid[y]})
        doc_rows = {
            "write_claims": [dict(row, paper_id=pid[SUBJECT], doc_id=a.doc_id) for row in a.claims],
            "write_sources": [dict(row, doc_id=a.doc_id) for row in a.sources],
            "write_claim_cites": [dict(row, doc_id=a.doc_id) for row in a.claim_cites],
            "write_checks": [dict(row, doc_id=a.doc_id) for row in a.checks],
            "write_refers_to": sorted(({"source_id": s, "paper_id": pid[m], "doc_id": a.doc_id}
                                       for s, m in a.refers_to), key=lambda row: row["source_id"]),
        }
        counts[a.doc_id] = Counter({"papers": len(doc_papers), "paper_cites": len(doc_cites)})
        if withheld_here := sum(row.pop("withheld") for row in doc_papers):
            counts[a.doc_id]["dois_withheld"] = withheld_here
        counts[a.doc_id].update({name.removeprefix("write_"): len(r) for name, r in doc_rows.items()})
        papers.extend(doc_papers)
        for pair in doc_cites:
            cites.setdefault(pair, []).append(a.doc_id)
        for name, doc_part in doc_rows.items():
            rows[name].extend(doc_part)
    # Papers and their citations are shared between documents: one row per node or pair, so
    # no statement reads what an earlier row of the same statement wrote. Papers come first:
    # the other statements match them.
    return {"write_papers": _combine_paper_rows(papers),
            "write_paper_cites": [{"citing": x, "cited": y, "doc_ids": docs} for (x, y), docs in cites.items()],
            **rows}, counts


def _combine_paper_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per paper with each document's statement about it, and their fold."""
    combined: dict[str, dict[str, Any]] = {}
    for row in rows:
        mention = {"doc_id": row["doc_id"], "rank": row["rank"], "properties": row["properties"]}
        combined.setdefault(row["paper_id"], {"paper_id": row["paper_id"], "mentions": []})["mentions"].append(mention)
    for paper_id, row in combined.items():
        # One statement is its own fold; sent once, it keeps the rows (and their packing) small.
        row["folded"] = None
        if len(row["mentions"]) > 1:
            folded: dict[str, tuple[int, str, Any]] = {}
            for mention in row["mentions"]:
                fold(folded, mention)
            row["folded"] = {key: value for key, (_, _, value) in folded.items()}
    return list(combined.values())


def fold(properties: dict[str, tuple[int, str, Any]], mention: dict[str, Any]) -> None:
    """refold_papers, one statement at a time: per property the best rank wins, then the lower
    document id. `properties` maps each property to (rank, doc_id, value) of its winner."""
    rank, doc_id = mention["rank"], mention["doc_id"]
    for key, value in mention["properties"].items():
        held = properties.get(key)
        if held is None or rank > held[0] or (rank == held[0] and doc_id < held[1]):
            properties[key] = (rank, doc_id, value)


def retract_document(tx: ManagedTransaction, doc_id: str) -> set[str]:
    """Withdraw what a document asserted; returns the papers that remain and need refolding."""
    return {record["paper_id"] for record in tx.run(statement("retract_document"), doc_id=doc_id)}


def refold_papers(tx: ManagedTransaction, paper_ids: set[str]) -> None:
    """Fold every property of `paper_ids` again."""
    for part in chunks(sorted(paper_ids), ROWS_PER_STATEMENT):
        tx.run(statement("refold_papers"), paper_ids=Rows(part)).consume()


def _contested_row(row: dict[str, Any], keys: list[str]) -> dict[str, Any]:
    """refold_contested's row for a paper of write_papers: the batch's best statement of each key."""
    best: dict[str, tuple[int, str, Any]] = {}
    for mention in row["mentions"]:
        fold(best, mention)
    return {"paper_id": row["paper_id"], "keys": [
        {"key": key, "rank": rank, "doc_id": doc_id, "value": value}
        for key, (rank, doc_id, value) in best.items() if key in keys]}


def _send(tx: ManagedTransaction, name: str, rows: list[dict[str, Any]], **parameters: Any) -> list[Result]:
    """Run a write statement over rows, in parts, without waiting for it to finish; the parts'
    results, whose records the driver keeps until they are read. If the server refuses a part,
    the next statement or the commit raises its error."""
    return [tx.run(statement(name), rows=Rows(part), **parameters) for part in chunks(rows, ROWS_PER_STATEMENT)]


def _paper_rows(a: Assertions, pid: list[str], withheld: set[tuple[str, str]]) -> list[dict[str, Any]]:
    """One row per work the document mentions: its best-ranked mention speaks for the document,
    with the identifiers any of its mentions of the work carry (but a withheld DOI)."""
    by_paper: dict[str, list[int]] = {}
    for index, paper_id in enumerate(pid):
        by_paper.setdefault(paper_id, []).append(index)
    rows = []
    for paper_id, indexes in by_paper.items():
        same = [a.mentions[i] for i in indexes]
        best = max(same, key=lambda mention: mention.rank)  # the first of the best, in document order
        properties = dict(best.properties)
        for key in ("arxiv_id", "doi", "fallback"):
            if value := next((getattr(m, key) for m in same if getattr(m, key)), None):
                properties[key] = value
        dropped = (paper_id, properties.get("doi")) in withheld
        if dropped:
            del properties["doi"]
        rows.append({"doc_id": a.doc_id, "paper_id": paper_id, "rank": best.rank, "properties": properties,
                     "withheld": dropped})
    return rows


def _resolve_papers(tx: ManagedTransaction, batch: Batch
                    ) -> tuple[Callable[[int, int], str], set[str], set[tuple[str, str]]]:
    """The paper_id of every (document number, mention index), the nodes that absorbed
    others (merges nodes found to be one work), and the DOIs papers must leave out.

    Two works can share a DOI yet be two works: a raw reference that glues the next entry's
    DOI to its own arXiv id. The DOI is unique in the graph, so the paper that had it first
    (in the graph, then in the batch) keeps it; writing it twice would reject the document."""
    flat = [(doc, index) for doc, pending in enumerate(batch.documents)
            for index in range(len(pending.assertions.mentions))]
    found = _candidates(tx, batch.lookup)
    survivor: dict[str, str] = {}  # existing paper_id → the paper_id it now belongs to
    merges: list[dict[str, str]] = []
    assigned: list[str] = []
    holders: dict[str, str] = {}  # DOI → the paper that keeps it
    withheld: set[tuple[str, str]] = set()
    for number, (prepared, _) in enumerate(batch.works):
        identity = prepared
        targets = []
        for node in found.get(number, []):
            node_identity = Identity.of(node["arxiv_id"], node["doi"], node["title_norm"], node["year"],
                                        node["fallback"])
            if identity.same_work(node_identity):
                if identity is prepared:  # the batch stays as prepared: the driver may run this again
                    identity = prepared.copy()
                identity.absorb(node_identity)
                targets.append(_follow(survivor, node["paper_id"]))
            elif node["doi"] in identity.dois:
                holders.setdefault(node["doi"], node["paper_id"])
        paper_id = targets[0] if targets else _follow(survivor, identity.new_paper_id())
        for doi in sorted(identity.dois):
            if holders.setdefault(doi, paper_id) != paper_id:
                withheld.add((paper_id, doi))
        for other in dict.fromkeys(targets[1:]):
            if other != paper_id:
                merges.append({"keep": paper_id, "gone": other})
                survivor[other] = paper_id
        survivor[paper_id] = paper_id
        assigned.append(paper_id)
    if merges:
        tx.run(statement("merge_papers"), pairs=merges).consume()
    result = {}
    for number, (_, members) in enumerate(batch.works):
        for member in members:
            result[flat[member]] = _follow(survivor, assigned[number])
    return ((lambda doc, index: result[(doc, index)]), {_follow(survivor, pair["keep"]) for pair in merges},
            {(_follow(survivor, paper_id), doi) for paper_id, doi in withheld})


def _follow(survivor: dict[str, str], paper_id: str) -> str:
    while survivor.get(paper_id, paper_id) != paper_id:
        paper_id = survivor[paper_id]
    return paper_id


def _candidate_keys(works: list[Identity]) -> dict[str, list[dict[str, Any]]]:
    """paper_candidates' parameters: each identifier of each work, with the work's number."""
    keys: dict[str, list[dict[str, Any]]] = {"arxiv_ids": [], "dois": [], "titles": [], "fallbacks": []}
    for work, identity in enumerate(works):
        keys["arxiv_ids"] += [{"work": work, "value": value} for value in sorted(identity.arxiv_ids)]
        keys["dois"] += [{"work": work, "value": value} for value in sorted(identity.dois)]
        keys["titles"] += [{"work": work, "value": norm, "year": year, "identified": bool(identity.arxiv_ids)}
                           for norm, year in sorted(identity.titles, key=str)]
        keys["fallbacks"] += [{"work": work, "value": value} for value in sorted(identity.fallbacks)]
    return {name: Rows(values) for name, values in keys.items()}


def _candidates(tx: ManagedTransaction, lookup: dict[str, list[dict[str, Any]]]) -> dict[int, list[dict[str, Any]]]:
    """The existing nodes each work may be, by work number: each node once, best match first
    (arXiv id, DOI, title, fallback; then paper_id)."""
    best: dict[int, dict[str, tuple[int, dict[str, Any]]]] = {}
    for work, how, *identifiers in tx.run(statement("paper_candidates"), **lookup).single(strict=True)["found"]:
        node = dict(zip(CANDIDATE_COLUMNS, identifiers))
        known = best.setdefault(work, {}).get(node["paper_id"])
        if known is None or how < known[0]:
            best[work][node["paper_id"]] = (how, node)
    return {work: [node for _, node in sorted(nodes.values(), key=lambda found: (found[0], found[1]["paper_id"]))]
            for work, nodes in best.items()}


def count_rows(counts: Iterable[Counter]) -> Counter:
    total: Counter = Counter()
    for count in counts:
        total.update(count)
    return total
