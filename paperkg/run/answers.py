"""Precomputed answers: the corpus-wide answers of the library's slowest queries, stored in the
graph, so that reading one costs an index lookup instead of a pass over every claim or citation.

A query whose header says `precomputed` has its answer with the default parameters stored in
an `Answer` node by `paperkg precompute`. The library reads that answer instead of running the
query while it is current. Every transaction that changes what the documents assert marks
the answers outdated in that same transaction (`outdate_answers` in paperkg/load/transactions.py),
so an answer is never read after a change it has not seen; an outdated answer's query runs
itself. An ingestion run computes the outdated answers again before it lets go of the
ingestion lock (`refresh`), so after `paperkg sync` they are current. The answer is the
query's own rows, as JSON: reading it gives what running the query gives.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from paperkg.cypher_files import QueryError, statement
from paperkg.library import Library, Query, fingerprint, library
from paperkg.load.schema import apply_schema
from paperkg.run.lock import IngestLock
from paperkg.write_steps import write_step


class AnswerError(QueryError):
    """An answer that cannot be stored: a value JSON does not hold, or a query not precomputed."""


@dataclass(frozen=True)
class Computed:
    """One answer computed and stored."""

    query: str
    rows: int
    seconds: float


def precomputed_queries(lib: Library | None = None) -> list[Query]:
    """The library's queries whose default answer may be stored."""
    return [query for query in lib or library() if query.precomputed]


def precompute(kb: Any, names: list[str] | None = None, lock_wait: float = 0.0) -> list[Computed]:
    """Compute and store the default answers of `names` (every precomputed query when None).
    It holds the ingestion lock (waiting up to `lock_wait` seconds for it), so no run changes
    the graph between a query and the store of its answer."""
    lib = library()
    queries = precomputed_queries(lib)
    if names is not None:
        known = {query.name for query in queries}
        if unknown := [name for name in names if name not in known]:
            precomputable = ", ".join(sorted(known))
            raise AnswerError(f"{', '.join(unknown)}: not a precomputed query (they are: {precomputable})")
        queries = [query for query in queries if query.name in names]
    apply_schema(kb)  # the answers' constraint, on a graph no run of this version has written
    with IngestLock(kb, wait=lock_wait) as lock:
        return _compute(kb, lib, queries, lock)


def refresh(kb: Any, lock: IngestLock) -> list[Computed]:
    """Compute again the stored answers that are outdated or were computed by another version
    of their query; answers of queries no longer precomputed go. Under the caller's `lock`."""
    lib = library()
    queries = {query.name: query for query in precomputed_queries(lib)}
    stored = kb.read("answers")
    if gone := [row["query"] for row in stored if row["query"] not in queries]:
        kb.execute(statement("drop_answers"), queries=gone)
    stale = []
    for row in stored:
        query = queries.get(row["query"])
        if query and not (row["current"] and row["fingerprint"] == fingerprint(query, query.bind({}))):
            stale.append(query)
    return _compute(kb, lib, stale, lock)


def drop(kb: Any) -> int:
    """Remove every stored answer; how many there were."""
    return kb.execute(statement("drop_answers"), queries=None)[0]["dropped"]


def answers(kb: Any) -> list[dict[str, Any]]:
    """The stored answers: query, current, rows, seconds, computed_at (a datetime)."""
    return [
        {
            "query": row["query"],
            "current": row["current"],
            "rows": row["rows"],
            "seconds": row["seconds"],
            "computed_at": row["computed_at"].to_native(),
        }
        for row in kb.read("answers")
    ]


def _compute(kb: Any, lib: Library, queries: list[Query], lock: IngestLock) -> list[Computed]:
    computed = []
    for query in queries:
        lock.heartbeat()
        computed.append(_store(kb, lib, query))
    return computed


def _store(kb: Any, lib: Library, query: Query) -> Computed:
    values = query.bind({})
    started = time.perf_counter()
    result = lib.execute(kb, query, values)
    seconds = time.perf_counter() - started
    try:
        rows = json.dumps(list(result), ensure_ascii=False, default=_refuse)
    except TypeError as exc:
        raise AnswerError(f"{query.name}: {exc}") from None
    write_step()
    kb.execute(
        statement("store_answer"),
        query=query.name,
        fingerprint=fingerprint(query, values),
        parameters=json.dumps(values, sort_keys=True),
        columns=list(result.columns),
        rows=rows,
        row_count=len(result),
        seconds=round(seconds, 3),
    )
    return Computed(query.name, len(result), seconds)


def _refuse(value: Any) -> Any:
    raise TypeError(f"its answer holds a {type(value).__name__} value, which a stored answer cannot hold")
