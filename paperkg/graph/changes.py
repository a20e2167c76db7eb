"""A run's change set: what each of its transactions did to the knowledge, computed in that
transaction and stored with it (a `ChangeSet` node per transaction, keyed by the run).

Each change is one thing's state before and after: a work (present or not), a `CITES` pair,
a claim (its status), a check (its verdict), a source (the work it refers to), and a paper's
identity (the node it is merged into, `''` when it is a work of its own). The recorder reads
the states of what a transaction is about to touch before it writes (the papers a merge or
split reshapes just before they are reshaped) and the same things again before it commits;
what differs is the change set. Reading only what the transaction touches keeps the cost
and the stored size in proportion to the documents written, not to the corpus.

Changes compose: over several transactions a thing's net change is its first state before
and its last state after, and it cancelled out when the two are equal. That rule has one
home, the library query `changes_since` (queries/changes_since.cypher).

A run that builds the whole graph (it starts on a graph without documents, papers or change
history: a first ingest, or an offline import) records no entries: everything it leaves is
what it added, so its one change set is "whole" and holds counts
(cypher/record_whole_changes.cypher), and `changes_since` reads the things from the graph.
Listing them would store a second copy of the graph, and reading their states before and
after each transaction would cost the run about as much as writing them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from neo4j import ManagedTransaction, Result

from paperkg.cypher_files import statement
from paperkg.graph.identity import Evidence, Work
from paperkg.graph.rows import Rows

# Entities in the order a change set lists them.
ENTITIES = ("work", "merge", "cites", "claim", "check", "source")
FIELDS = ("entity", "key", "before", "after", "paper", "other", "detail")
PRESENT = "present"
CHECK_KEY_SEPARATOR = " | "
CITES_KEY_SEPARATOR = " -> "


@dataclass(frozen=True)
class Change:
    """One thing's state before and after (None: absent). `paper` and `other` are the papers
    it concerns (a citation's citing and cited work; a claim's or check's paper and, for a
    check, the work its source refers to); `detail` says what it is in words (a title, a claim's
    text, a source as cited, the identity evidence of a merge)."""

    entity: str
    key: str
    before: str | None
    after: str | None
    paper: str | None = None
    other: str | None = None
    detail: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def sort_key(change: Change) -> tuple:
    return (ENTITIES.index(change.entity), change.key)


def encode(changes: Sequence[Change]) -> dict[str, list[str]]:
    """A change set as the ChangeSet node's parallel list properties ('' for None)."""
    return {name: ["" if getattr(c, name) is None else getattr(c, name) for c in changes] for name in FIELDS}


def decode(lists: dict[str, list[str]]) -> list[Change]:
    """The changes of a ChangeSet node's parallel lists."""
    count = len(lists.get("entity") or [])
    return [Change(*(lists[name][i] or None for name in FIELDS)) for i in range(count)]


@dataclass
class _States:
    """States read from the graph, for a scope: everything named in a read is in the scope,
    and what the read did not return is absent."""

    papers: dict[str, str | None] = field(default_factory=dict)  # paper_id → title (None: absent)
    cites: dict[tuple[str, str], bool] = field(default_factory=dict)
    claims: dict[str, tuple[str, str, str] | None] = field(default_factory=dict)  # status, paper, text
    checks: dict[tuple[str, str], tuple[str, str] | None] = field(default_factory=dict)  # verdict, source key
    sources: dict[str, tuple[str, str] | None] = field(default_factory=dict)  # paper referred to, key


class ChangeRecorder:
    """The change set of one transaction. Scope is added by `before` reads (the first read of a
    thing is its state before); `finish` reads the whole scope again, diffs and stores it."""

    def __init__(self, tx: ManagedTransaction, run_id: str, run_started: str, batch: int, action: str):
        self.tx, self.run_id, self.run_started, self.batch, self.action = tx, run_id, run_started, batch, action
        self.state = _States()
        self.around: set[str] = set()  # papers whose every CITES and referring source is in scope
        self.identity: list[Change] = []
        self.documents = 0
        # Reads sent and not yet taken in, oldest first: a before-read's records are not
        # waited for (the driver waits only for the server to accept it), the writes follow
        # it in the transaction's order, and `finish` takes its states in.
        self.pending: list[tuple[Result, _Scope]] = []

    def before(
        self,
        *,
        papers: Iterable[str] = (),
        cites: Iterable[tuple[str, str]] = (),
        claims: Iterable[str] = (),
        checks: Iterable[tuple[str, str]] = (),
        sources: Iterable[str] = (),
        around: Iterable[str] = (),
        doc_ids: Sequence[str] = (),
    ) -> None:
        """Take these things' states as they are now, unless an earlier read took them."""
        around = sorted(set(around) - self.around)
        scope = _Scope(
            sorted(set(papers) | set(around)),
            sorted(set(cites)),
            sorted(set(claims)),
            sorted(set(checks)),
            sorted(set(sources)),
            around,
            list(doc_ids),
        )
        self.pending.append((self._send(scope), scope))
        self.around.update(around)

    def _take_in(self) -> None:
        """The states of the reads sent so far, in the order they were sent (the first read of
        a thing is its state before)."""
        for result, scope in self.pending:
            read = _states(result.single(strict=True), scope)
            for name in ("papers", "cites", "claims", "checks", "sources"):
                held, found = getattr(self.state, name), getattr(read, name)
                for key, value in found.items():
                    held.setdefault(key, value)
        self.pending = []

    def reshaping(
        self,
        changed: Sequence[str],
        merges: Sequence[dict[str, str]],
        moves: Sequence[dict[str, str]],
        region: dict[str, set[Evidence]],
        works: dict[Evidence, Work] | None = None,
    ) -> None:
        """Called just before papers are merged or split: their states, and the identity
        changes with the evidence that made them. A whole node that goes into a new node, of a
        work made only of evidence the node held (`works`: the region's resolution), is a
        split, not a merge: that work had been merged into the node, and what made them one
        is gone (a card that joined a title to a new arXiv id, retracted)."""
        self.before(papers=changed, around=changed)
        for merge in merges:
            gone, keep = merge["gone"], merge["keep"]
            held = region.get(gone, set())
            if works is not None and keep not in region and _all_held(works, keep, held):
                self.identity.append(Change("merge", keep, gone, None, keep, gone, describe_evidence(held)))
                continue
            self.identity.append(Change("merge", gone, None, keep, gone, keep, describe_evidence(held)))
        moved: dict[tuple[str, str], list[str]] = {}
        for move in moves:
            moved.setdefault((move["to"], move["from"]), []).append(move["key"])
        for (target, source), keys in sorted(moved.items()):
            evidence = [e for e in region.get(source, ()) if e.key in set(keys)]
            self.identity.append(Change("merge", target, source, None, target, source, describe_evidence(evidence)))

    def finish(self) -> list[Change]:
        """Read the scope again, store the change set of the transaction and return it."""
        self._take_in()
        state = self.state
        scope = _Scope(
            sorted(state.papers),
            sorted(state.cites),
            sorted(state.claims),
            sorted(state.checks),
            sorted(state.sources),
            sorted(self.around),
            [],
        )
        after = _states(self._send(scope).single(strict=True), scope)
        changes = list(self.identity)
        for paper_id in after.papers.keys() | state.papers.keys():
            was, now = state.papers.get(paper_id), after.papers.get(paper_id)
            if (was is None) != (now is None):
                changes.append(
                    Change(
                        "work",
                        paper_id,
                        PRESENT if was is not None else None,
                        PRESENT if now is not None else None,
                        paper_id,
                        None,
                        now or was or None,
                    )
                )
        for pair in after.cites.keys() | state.cites.keys():
            was, now = state.cites.get(pair, False), after.cites.get(pair, False)
            if was != now:
                changes.append(
                    Change(
                        "cites",
                        CITES_KEY_SEPARATOR.join(pair),
                        PRESENT if was else None,
                        PRESENT if now else None,
                        pair[0],
                        pair[1],
                    )
                )
        claim_papers: dict[str, str] = {}
        for claim_id in after.claims.keys() | state.claims.keys():
            was, now = state.claims.get(claim_id), after.claims.get(claim_id)
            seen = now or was
            claim_papers[claim_id] = seen[1]
            if (was and was[0]) != (now and now[0]):
                changes.append(
                    Change("claim", claim_id, was and was[0], now and now[0], seen[1] or None, None, seen[2] or None)
                )
        sources_to = {key: (value or state.sources.get(key) or ("", ""))[0] for key, value in after.sources.items()}
        for pair in after.checks.keys() | state.checks.keys():
            was, now = state.checks.get(pair), after.checks.get(pair)
            if (was and was[0]) != (now and now[0]):
                seen = now or was
                changes.append(
                    Change(
                        "check",
                        CHECK_KEY_SEPARATOR.join(pair),
                        was and was[0],
                        now and now[0],
                        claim_papers.get(pair[0]) or None,
                        sources_to.get(pair[1]) or None,
                        seen[1] or None,
                    )
                )
        for source_id in after.sources.keys() | state.sources.keys():
            was, now = state.sources.get(source_id), after.sources.get(source_id)
            if ((was and was[0]) or None) != ((now and now[0]) or None):
                seen = now or was
                changes.append(
                    Change(
                        "source",
                        source_id,
                        (was and was[0]) or None,
                        (now and now[0]) or None,
                        (now and now[0]) or (was and was[0]) or None,
                        None,
                        seen[1] or None,
                    )
                )
        changes.sort(key=sort_key)

        # Not waited for either: if the server refuses it, the commit raises its error.
        self.tx.run(
            statement("record_changes"),
            run_id=self.run_id,
            run_started=self.run_started,
            batch=self.batch,
            action=self.action,
            documents=self.documents,
            changes={name: Rows(values) for name, values in encode(changes).items()},
        )
        return changes

    def _send(self, scope: _Scope) -> Result:
        return self.tx.run(
            statement("change_state"),
            scope={
                "paper_ids": Rows(scope.papers),
                "cites": Rows(list(p) for p in scope.cites),
                "claim_ids": Rows(scope.claims),
                "checks": Rows(list(p) for p in scope.checks),
                "source_ids": Rows(scope.sources),
                "around": Rows(scope.around),
                "doc_ids": Rows(scope.doc_ids),
            },
        )


@dataclass(frozen=True)
class _Scope:
    """What one change_state read names."""

    papers: list[str]
    cites: list[tuple[str, str]]
    claims: list[str]
    checks: list[tuple[str, str]]
    sources: list[str]
    around: list[str]
    doc_ids: list[str]


def _states(record: Any, scope: _Scope) -> _States:
    """The states a change_state read found: what it named and did not return is absent."""
    read = _States()
    read.papers = dict.fromkeys(scope.papers)
    read.papers.update(dict(record["papers"]))
    read.cites = dict.fromkeys(scope.cites, False)
    read.cites.update(dict.fromkeys(map(tuple, record["cites"]), True))  # pairs arrive as lists
    read.claims = dict.fromkeys(scope.claims)
    read.claims.update({claim_id: (status, paper, text) for claim_id, status, paper, text in record["claims"]})
    read.checks = dict.fromkeys(scope.checks)
    read.checks.update(
        {(claim_id, source_id): (verdict, key) for claim_id, source_id, verdict, key in record["checks"]}
    )
    read.sources = dict.fromkeys(scope.sources)
    read.sources.update({source_id: (paper, key) for source_id, paper, key in record["sources"]})
    return read


def _all_held(works: dict[Evidence, Work], paper_id: str, held: set[Evidence]) -> bool:
    """Whether the work `paper_id` is made of evidence in `held` only."""
    work = next((works[e] for e in held if e in works and works[e].paper_id == paper_id), None)
    return work is not None and set(work.evidence) <= held


def describe_evidence(evidence: Iterable[Evidence]) -> str:
    """Identity evidence in words, one item per distinct piece, sorted."""
    items = set()
    for e in evidence:
        parts = []
        if e.arxiv_id:
            parts.append(f"arXiv {e.arxiv_id}")
        if e.doi:
            parts.append(f"DOI {e.doi}")
        if e.title_norm:
            parts.append(f'title "{e.title_norm}"' + (f" ({e.year})" if e.year else ""))
        if e.fallback and not parts:
            parts.append(f"entry {e.fallback}")
        items.add(", ".join(parts))
    return "; ".join(sorted(items))


@dataclass
class ChangeLog:
    """A run's change sets: gives each transaction its recorder, numbered in commit order; or,
    for a run that builds the whole graph, keeps its one whole change set."""

    run_id: str
    run_started: str  # when the run began, to the microsecond: change sets order by it, then batch
    batches: int = 0
    whole: bool = False  # the run started on a graph without knowledge or history

    def recorder(self, tx: ManagedTransaction, action: str, documents: int) -> ChangeRecorder | None:
        """The transaction's recorder; None for a whole run, whose change set `whole_changes`
        keeps instead."""
        if self.whole:
            return None
        self.batches += 1
        recorder = ChangeRecorder(tx, self.run_id, self.run_started, self.batches, action)
        recorder.documents = documents
        return recorder

    def whole_changes(self, tx: ManagedTransaction, action: str, documents: int) -> Result | None:
        """For a whole run, write its change set again with this transaction's documents counted
        (not waited for; its record holds how many things it counts). None otherwise."""
        if not self.whole:
            return None
        self.batches = 1  # the run's change sets: a whole run has one, however many transactions
        return record_whole_changes(tx, self.run_id, self.run_started, action, documents, final=False)

    def finish_whole(self, tx: ManagedTransaction) -> int:
        """At the end of a whole run that wrote something: its change set with every count;
        how many things it counts."""
        record = record_whole_changes(tx, self.run_id, self.run_started, "write", 0, final=True)
        return record.single(strict=True)["changes"]


def record_whole_changes(
    tx: ManagedTransaction, run_id: str, run_started: str, action: str, documents: int, *, final: bool
) -> Result:
    """Write a whole run's change set again, counting the graph as the transaction leaves it
    (`final`: the matched sources too, which are counted one by one)."""
    return tx.run(
        statement("record_whole_changes"),
        run_id=run_id,
        run_started=run_started,
        action=action,
        documents=documents,
        final=final,
    )


def batch_scope(rows: dict[str, list[dict[str, Any]]]) -> dict[str, set]:
    """What a batch's write statements touch, from their rows (write.batch_rows)."""
    return {
        "papers": {row["paper_id"] for row in rows["write_papers"]},
        "cites": {(row["citing"], row["cited"]) for row in rows["write_paper_cites"]},
        "claims": {
            row["claim_id"] for name in ("write_claims", "write_checks", "write_claim_cites") for row in rows[name]
        },
        "checks": {(row["claim_id"], row["source_id"]) for row in rows["write_checks"]},
        "sources": {row["source_id"] for name in ("write_sources", "write_refers_to") for row in rows[name]},
    }
