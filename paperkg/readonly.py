"""What `kb.cypher()` lets an ad-hoc statement do: read the graph, and nothing else.

The server refuses writes in a read transaction, but a read transaction may still terminate
other transactions (an ingest's), kill connections, make the server fetch any URL (LOAD CSV),
clear the query caches or start statistics collection. So before a statement runs, its plan
is checked (from EXPLAIN, which executes nothing): no administration command, no LOAD CSV, no
TERMINATE, and procedures only from ALLOWED_PROCEDURES, which read the schema or the indexes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from neo4j import Driver, RoutingControl
from neo4j.exceptions import ClientError

from paperkg.errors import PaperkgError

ALLOWED_PROCEDURES = frozenset(
    {
        "db.labels",
        "db.relationshipTypes",
        "db.propertyKeys",
        "db.schema.visualization",
        "db.schema.nodeTypeProperties",
        "db.schema.relTypeProperties",
        "db.index.fulltext.queryNodes",
        "db.index.fulltext.queryRelationships",
        "db.index.vector.queryNodes",
        "db.index.vector.queryRelationships",
        "db.info",
        "db.ping",
        "dbms.components",
    }
)
# Plan operators of statements that act on the server rather than read the graph.
REFUSED_OPERATORS = {
    "AdministrationCommand": "administration commands",
    "TerminateTransactions": "TERMINATE TRANSACTIONS",
    "LoadCSV": "LOAD CSV",
}
_PLAN_PREFIX = re.compile(r"\s*(?:EXPLAIN|PROFILE)\b", re.IGNORECASE)
_PROCEDURE = re.compile(r"([\w.]+)\s*\(")


# The server's refusal of a write in a read transaction, in which kb.cypher() runs.
WRITE_IN_READ_MODE = "Neo.ClientError.Statement.AccessMode"


class ReadOnlyViolation(PaperkgError):
    """An ad-hoc statement would do more than read the graph; it was not run, or the server
    refused its writes."""

    def __init__(self, refused: str) -> None:
        super().__init__(f"kb.cypher() only reads the graph and refuses {refused}")


def check_read_only(driver: Driver, database: str | None, statement: str, parameters: dict[str, Any]) -> None:
    """ReadOnlyViolation unless `statement` only reads the graph (see the module's docstring)."""
    planned = "EXPLAIN " + _PLAN_PREFIX.sub("", statement, count=1)
    _, summary, _ = driver.execute_query(planned, parameters, database_=database, routing_=RoutingControl.READ)
    for operator, details in _operators(summary.plan or {}):
        if operator in REFUSED_OPERATORS:
            raise ReadOnlyViolation(REFUSED_OPERATORS[operator])
        if operator == "ProcedureCall":
            match = _PROCEDURE.match(details or "")
            name = match[1] if match else "an unnamed procedure"
            if name not in ALLOWED_PROCEDURES:
                raise ReadOnlyViolation(f"procedure {name} (allowed: paperkg.readonly.ALLOWED_PROCEDURES)")


@contextmanager
def writes_refused() -> Iterator[None]:
    """The server's refusal of a write in the read transaction, as ReadOnlyViolation."""
    try:
        yield
    except ClientError as exc:
        if exc.code != WRITE_IN_READ_MODE:
            raise
        raise ReadOnlyViolation("writes (kb.execute() writes)") from None


def _operators(plan: Mapping[str, Any]) -> Iterator[tuple[str, str | None]]:
    """(operator, details) of every operator in a plan, its database suffix (`@neo4j`) dropped."""
    yield plan.get("operatorType", "").partition("@")[0], plan.get("args", {}).get("Details")
    for child in plan.get("children", []):
        yield from _operators(child)
