"""A run's report: each document's result, the totals, what landed, and the run's IngestRun."""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import IO, Any

from paperkg.corpus.results import STATUSES, DocumentResults, write_json
from paperkg.cypher_files import statement
from paperkg.db import KnowledgeBase
from paperkg.write_steps import write_step


@dataclass
class RunReport:
    run_id: str
    started_at: str
    ended_at: str | None = None
    # The way the run wrote: the name of its loader (paperkg.load): "transactions" or "bulk".
    loader: str = ""
    # Each document's result, on disk: iterating reads them back (see paperkg/corpus/results.py).
    documents: DocumentResults = field(default_factory=DocumentResults)
    identity: Counter = field(default_factory=Counter)  # nodes merged into others, nodes split
    # What landed, counted as `paperkg stats` counts: new (or, retracted, fewer) nodes per label
    # and relationships per type. The documents' counts say what each one mentioned.
    graph_change: dict[str, dict[str, int]] = field(default_factory=dict)
    # The changes the run's change sets hold, stored with them (None: not recorded); for a run
    # that built the whole graph, the things its one change set counts.
    changes_recorded: int | None = None
    # The precomputed answers the run computed again (paperkg.run.answers), when there were any.
    answers_refreshed: list[str] = field(default_factory=list)
    answers_seconds: float = 0.0  # what computing them took, the run's share of its time
    answers_error: str | None = None  # why they were not, when the server failed to compute one
    # The unchanged documents whose files were not read: their stat was what it was when they
    # were last read (paperkg.corpus.files).
    unchanged_not_read: int = 0

    @property
    def totals(self) -> dict[str, int]:
        totals = Counter({"seen": len(self.documents)})
        totals.update(self.documents.statuses)
        totals["seen"] -= totals["retracted"]
        return {key: totals.get(key, 0) for key in ("seen", *STATUSES)}

    @property
    def rows_written(self) -> dict[str, int]:
        return dict(sorted(self.documents.rows_written.items()))

    @property
    def ok(self) -> bool:
        return self.totals["rejected"] == 0

    def summary_dict(self) -> dict[str, Any]:
        """The report but its documents."""
        return {
            "run_id": self.run_id,
            "started_at": self.started_at,
            "ended_at": self.ended_at,
            "loader": self.loader,
            "totals": self.totals,
            "unchanged_not_read": self.unchanged_not_read,
            "graph_change": self.graph_change,
            "rows_written": self.rows_written,
            "identity": {"merged": self.identity["merged"], "split": self.identity["split"]},
            **({} if self.changes_recorded is None else {"changes_recorded": self.changes_recorded}),
            **(
                {"answers_refreshed": self.answers_refreshed, "answers_seconds": self.answers_seconds}
                if self.answers_refreshed
                else {}
            ),
            **({"answers_error": self.answers_error} if self.answers_error else {}),
        }

    def to_dict(self) -> dict[str, Any]:
        return {**self.summary_dict(), "documents": [asdict(document) for document in self.documents]}

    def record(self, kb: KnowledgeBase, **properties: Any) -> None:
        """End the run now and record it as its IngestRun: its times, totals, status and loader,
        and `properties`."""
        self.ended_at = now()
        write_step()
        kb.execute(
            statement("record_run"),
            run_id=self.run_id,
            properties={
                "started_at": self.started_at,
                "ended_at": self.ended_at,
                **self.totals,
                "status": "ok" if self.ok else "rejected",
                "loader": self.loader,
                **properties,
            },
        )

    def write_json(self, out: IO[str]) -> None:
        """`to_dict()` as JSON (indented by two), written one document at a time."""
        write_json(self.summary_dict(), self.documents, out)


def now() -> str:
    """The time as a run records it: UTC, to the second."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def graph_change(before: dict[str, dict[str, int]], after: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
    """The counts that differ, per group (nodes, relationships): after minus before."""
    return {
        group: {
            name: count - before[group].get(name, 0)
            for name, count in counts.items()
            if count != before[group].get(name, 0)
        }
        for group, counts in after.items()
    }
