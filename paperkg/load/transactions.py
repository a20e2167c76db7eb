"""Writing documents' assertions to Neo4j: one managed transaction per batch of documents.

Inside the transaction: mark the stored answers outdated (paperkg.run.answers), retract the
documents the batch replaces, resolve paper identity (`identity.resolve` over the evidence the
batch brings and the evidence in the graph that it meets), reshape the nodes whose works
changed (merged, split or re-keyed), then write rows with `UNWIND $rows ... MERGE` on
constrained keys. The driver retries the whole function on transient errors, so it only reads
what it writes in the same transaction.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any

from neo4j import ManagedTransaction, Result

from paperkg.cypher_files import statement
from paperkg.graph.batch import Batch, GraphResolution, batch_rows, chunks, contested_row, document_row
from paperkg.graph.changes import Change, ChangeLog, ChangeRecorder, batch_scope
from paperkg.graph.contract import DERIVED, IDENTITY_PROPERTIES, UNIT_PROPERTIES
from paperkg.graph.identity import Evidence, identifier_keys, resolve
from paperkg.graph.rows import Rows

ROWS_PER_STATEMENT = 5000


@dataclass
class BatchResult:
    counts: dict[str, Counter]  # rows written per document
    merged: int = 0  # nodes that became part of another work's node
    split: int = 0  # nodes whose evidence went to several works
    changes: list[Change] = field(default_factory=list)  # the transaction's change set (when recorded)
    whole: int | None = None  # a whole run's change set: how many things it counts after this transaction


def write_batch(tx: ManagedTransaction, batch: Batch, run_id: str, changes: ChangeLog | None = None) -> BatchResult:
    """Write a batch of documents (and, given the run's change log, the batch's change set)."""
    documents = [p.assertions for p in batch.documents]
    recorder = changes.recorder(tx, "write", len(documents)) if changes else None
    outdate_answers(tx)
    resolution = resolve_in_graph(tx, batch.evidence, set(), recorder)
    rows, counts = batch_rows(documents, resolution.paper_of)
    if recorder:
        recorder.before(**batch_scope(rows))
    touched = set(resolution.reshaped)  # papers whose statements changed: their properties are folded again
    # From here on the client does not wait for a statement's result: the server runs each
    # while the client builds the next one's rows (the driver's run returns once the server
    # has taken a statement, after the one before). Only write_papers' result is read back.
    _send(tx, "write_document", [document_row(a) for a in documents], run_id=run_id)
    paper_rows = rows.pop("write_papers")
    for row in paper_rows:
        row["new"] = row["paper_id"] not in resolution.in_graph
    for row in rows["write_paper_cites"]:
        row["new"] = row["citing"] not in resolution.in_graph or row["cited"] not in resolution.in_graph
    written = _send(tx, "write_papers", paper_rows)
    _send(tx, "write_identity", resolution.identity_rows())
    for name, all_rows in rows.items():
        _send(tx, name, all_rows)
    returned = [record for result in written for record in result]
    contested = {record["paper_id"]: record["contested_keys"] for record in returned if record["contested_keys"]}
    titled = {record["paper_id"] for record in returned if record["created"] or "title" in record["contested_keys"]}
    refold_papers(tx, touched)
    _send(
        tx,
        "refold_contested",
        [
            contested_row(row, contested[row["paper_id"]])
            for row in paper_rows
            if row["paper_id"] in contested and row["paper_id"] not in touched
        ],
    )
    store_title_lower(tx, titled | touched)
    store_claim_status(tx, {row["claim_id"] for row in rows["write_claims"]}, touched)
    whole = changes.whole_changes(tx, "write", len(documents)) if changes else None
    return BatchResult(
        counts,
        resolution.merged,
        resolution.split,
        recorder.finish() if recorder else [],
        whole.single(strict=True)["changes"] if whole else None,
    )


def retract_documents(tx: ManagedTransaction, doc_ids: Sequence[str], changes: ChangeLog | None = None) -> BatchResult:
    """Withdraw documents: what only they asserted goes, merges they showed included (the
    works of the evidence only they stated are resolved again without it)."""
    recorder = changes.recorder(tx, "retract", len(doc_ids)) if changes else None
    outdate_answers(tx)
    if recorder:
        recorder.before(doc_ids=doc_ids)
    touched: set[str] = set()
    withdrawn: dict[str, list[list[Any]]] = {}
    removed: set[Evidence] = set()
    claims: set[str] = set()
    for doc_id in doc_ids:
        retracted = retract_document(tx, doc_id)
        touched |= retracted.papers
        for paper_id, precedence, keys in retracted.withdrawn:
            withdrawn.setdefault(paper_id, []).append([precedence, keys])
        removed |= retracted.gone
        claims |= retracted.claims
    resolution = resolve_in_graph(tx, {}, removed, recorder)
    _send(tx, "write_identity", resolution.identity_rows())
    # A paper that no merge or split reshaped folds again only what its withdrawn statements
    # may have decided (a paper a later retraction removed is skipped).
    refold_papers(
        tx,
        resolution.reshaped,
        {paper_id: found for paper_id, found in withdrawn.items() if paper_id not in resolution.reshaped},
    )
    store_title_lower(tx, touched | resolution.reshaped)
    store_claim_status(tx, claims, touched | resolution.reshaped)
    whole = changes.whole_changes(tx, "retract", 0) if changes else None
    return BatchResult(
        {},
        resolution.merged,
        resolution.split,
        recorder.finish() if recorder else [],
        whole.single(strict=True)["changes"] if whole else None,
    )


def outdate_answers(tx: ManagedTransaction) -> None:
    """Mark the stored answers (paperkg.run.answers) outdated: a transaction that changes what the
    documents assert does this first, so no answer is read after a change it has not seen."""
    tx.run(statement("outdate_answers")).consume()


def store_title_lower(tx: ManagedTransaction, paper_ids: set[str]) -> None:
    """Store the lower-cased title of papers whose title may have changed."""
    for part in chunks(sorted(paper_ids), ROWS_PER_STATEMENT):
        tx.run(statement("title_lower"), papers=Rows(part)).consume()


def store_claim_status(tx: ManagedTransaction, claim_ids: set[str], paper_ids: AbstractSet[str] = frozenset()) -> None:
    """Store the support status of claims whose sources, checks or counts may have changed, then
    the claim counts of the papers making them and of `paper_ids` (whose claims may have moved
    or gone): each paper's once, however many statements its claims took."""
    papers = set(paper_ids)
    for part in chunks(sorted(claim_ids), ROWS_PER_STATEMENT):
        papers.update(row["paper_id"] for row in tx.run(statement("claim_status"), claims=Rows(part)))
    for part in chunks(sorted(papers), ROWS_PER_STATEMENT):
        tx.run(statement("claim_counts"), papers=Rows(part)).consume()


@dataclass(frozen=True)
class Retracted:
    """What withdrawing a document left to do: the papers that remain (resolved again), the
    statements withdrawn from them ([paper_id, precedence, keys], refolded), the evidence no
    other document states any more (its Evidence nodes are gone), and the claims that remain
    (their status is stored again)."""

    papers: set[str]
    withdrawn: list[list[Any]]
    gone: set[Evidence]
    claims: set[str]


def retract_document(tx: ManagedTransaction, doc_id: str) -> Retracted:
    """Withdraw what a document asserted."""
    record = tx.run(statement("retract_document"), doc_id=doc_id).single(strict=True)
    return Retracted(
        set(record["paper_ids"]),
        record["withdrawn"],
        {Evidence(*fields) for fields in record["gone"]},
        set(record["claim_ids"]),
    )


def refold_papers(
    tx: ManagedTransaction, paper_ids: AbstractSet[str], withdrawn: dict[str, list[list[Any]]] | None = None
) -> None:
    """Fold every property of `paper_ids` again, and of each paper in `withdrawn` the properties
    that the statements withdrawn from it ([precedence, keys] each) may have decided."""
    rows: list[dict[str, Any]] = [{"paper_id": paper_id, "withdrawn": None} for paper_id in sorted(paper_ids)]
    rows += [{"paper_id": paper_id, "withdrawn": found} for paper_id, found in sorted((withdrawn or {}).items())]
    for part in chunks(rows, ROWS_PER_STATEMENT):
        tx.run(
            statement("refold_papers"),
            papers=Rows(part),
            kept=[*IDENTITY_PROPERTIES, *DERIVED["Paper"]],
            unit_properties=list(UNIT_PROPERTIES),
        ).consume()


def _send(tx: ManagedTransaction, name: str, rows: list[dict[str, Any]], **parameters: Any) -> list[Result]:
    """Run a write statement over rows, in parts, without waiting for it to finish (only for
    the server to take each part, once the statement before has run); the parts'
    results, whose records the driver keeps until they are read. If the server refuses a part,
    the next statement or the commit raises its error."""
    results = []
    for part in chunks(rows, ROWS_PER_STATEMENT):
        sent = Rows(part)
        results.append(tx.run(statement(name), rows=sent, **parameters))
        # Sent: the driver keeps a statement's parameters in its result's summary, a reference
        # cycle, so the rows would wait for the garbage collector instead of going with the batch.
        sent.clear()
    return results


# -- identity against the graph ---------------------------------------------------------------


def resolve_in_graph(
    tx: ManagedTransaction,
    evidence: dict[Evidence, str],
    removed: set[Evidence],
    recorder: ChangeRecorder | None = None,
) -> GraphResolution:
    """Resolve the batch's evidence with the graph's: equal evidence already in the graph stays
    where it is unless new evidence meets its work; the rest is resolved with every piece of
    evidence it is connected to by an identifier (arXiv id, DOI, title, fallback), so the works
    are those `resolve` finds over all the documents at once. Nodes whose works changed are
    reshaped here, before the batch's rows are written."""
    of_key = {key: e for e, key in evidence.items()}
    known: dict[Evidence, str] = {}
    for part in chunks(list(of_key), ROWS_PER_STATEMENT):
        found = tx.run(statement("evidence_papers"), keys=Rows(part)).single(strict=True)["found"]
        known.update((of_key[key], paper_id) for key, paper_id in found)
    new = [e for e in evidence if e not in known]
    region = _region(tx, new + sorted(removed, key=Evidence.encode))
    works = resolve(set(new) | {e for found in region.values() for e in found})
    placed = {e: paper_id for paper_id, found in region.items() for e in found}
    resolution = GraphResolution(known, works, set(), placed)
    gone = _reshape(tx, region, resolution, recorder)
    # A work's paper_id names a node only if one of its identifiers found that node (the
    # region) or it is known; the region's nodes that merged away are gone.
    resolution.in_graph = set(known.values()) | (set(region) - gone) | resolution.reshaped
    return resolution


def _region(tx: ManagedTransaction, seeds: list[Evidence]) -> dict[str, set[Evidence]]:
    """The papers whose evidence is connected to the seeds by shared identifiers, with it: the
    seeds' connected classes as the graph holds them, which are all that resolving the seeds
    can change (identity.works_of)."""
    region: dict[str, set[Evidence]] = {}
    asked: dict[str, set[str]] = {name: set() for name in ("arxiv_ids", "dois", "titles", "fallbacks")}
    keys = identifier_keys(seeds)
    while any(keys.values()):
        for name, values in keys.items():
            asked[name].update(values)
        found = tx.run(statement("evidence_region"), {name: Rows(values) for name, values in keys.items()}).single(
            strict=True
        )["found"]
        fresh: list[Evidence] = []
        for paper_id, rows in found:
            evidence = {Evidence(*fields) for fields in rows}
            if paper_id not in region:
                fresh += evidence
            region.setdefault(paper_id, set()).update(evidence)
        keys = {name: sorted(set(values) - asked[name]) for name, values in identifier_keys(fresh).items()}
    return region


def _reshape(
    tx: ManagedTransaction,
    region: dict[str, set[Evidence]],
    resolution: GraphResolution,
    recorder: ChangeRecorder | None = None,
) -> set[str]:
    """Move the region's nodes to the works resolution found: a node whose evidence is now all
    another work's merges into that work's node (created when new); a node whose evidence is
    now several works' is split, its mentions moving by evidence and the relationships its
    documents assert drawn again from them. Returns the nodes merged away."""
    merges: list[dict[str, str]] = []
    moves: list[dict[str, str]] = []
    for paper_id, found in sorted(region.items()):
        targets = {resolution.works[e].paper_id for e in found}
        if targets == {paper_id}:
            continue
        if len(targets) == 1:
            merges.append({"keep": next(iter(targets)), "gone": paper_id})
        else:
            moves += [
                {"from": paper_id, "key": e.key, "to": resolution.works[e].paper_id}
                for e in sorted(found, key=Evidence.encode)
                if resolution.works[e].paper_id != paper_id
            ]
    if not merges and not moves:
        return set()
    reshaped = {row["keep"] for row in merges} | {row["from"] for row in moves} | {row["to"] for row in moves}
    gone = {row["gone"] for row in merges}
    changed = sorted(reshaped | gone)
    if recorder:
        recorder.reshaping(changed, merges, moves, region, resolution.works)
    tx.run(statement("clear_identity"), paper_ids=changed).consume()
    tx.run(statement("ensure_papers"), paper_ids=sorted(reshaped)).consume()
    if merges:
        tx.run(statement("merge_papers"), pairs=merges).consume()
    if moves:
        tx.run(statement("move_mentions"), moves=moves).consume()
        split = sorted({row["from"] for row in moves} | {row["to"] for row in moves})
        tx.run(statement("redraw_relationships"), paper_ids=split).consume()
    resolution.reshaped = reshaped - gone
    resolution.merged = len(merges)
    resolution.split = len({row["from"] for row in moves})
    return gone
