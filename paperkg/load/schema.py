"""Applying cypher/schema.cypher: constraints and indexes, then waiting until they are online;
then the derived properties those indexes serve, where a node lacks them."""

from __future__ import annotations

import re

from paperkg.cypher_files import CypherFileError, statement, statements
from paperkg.db import KnowledgeBase
from paperkg.graph.batch import chunks
from paperkg.load.transactions import store_claim_status, store_title_lower
from paperkg.write_steps import write_step

INDEX_WAIT_SECONDS = 300
NODES_PER_TRANSACTION = 20_000
# The name each statement of cypher/schema.cypher gives its index or constraint.
SCHEMA_NAME = re.compile(r"CREATE (?:[A-Z]+ )?(?:CONSTRAINT|INDEX) (\w+) IF NOT EXISTS ")


def apply_schema(kb: KnowledgeBase) -> None:
    """Create what the schema lacks and wait until it is online, then store the derived
    properties. Every run begins here: a schema that is whole and online is read in one
    statement, where applying it again costs a round trip for each of its statements."""
    write_step()
    if not schema_names() <= {row["name"] for row in kb.read("schema_online")}:
        for text in statements("schema"):
            kb.execute(text.rstrip(";"))
        kb.execute(statement("await_indexes"), seconds=INDEX_WAIT_SECONDS)
    store_derived_properties(kb)


def schema_names() -> set[str]:
    """The names of the indexes and constraints cypher/schema.cypher creates."""
    names = set()
    for text in statements("schema"):
        found = SCHEMA_NAME.match(text)
        if found is None:
            raise CypherFileError(f"cypher/schema.cypher: a statement names no index or constraint: {text[:80]}")
        names.add(found[1])
    return names


def store_derived_properties(kb: KnowledgeBase) -> None:
    """Store the derived properties the schema's indexes serve, where a node lacks them: after
    a load that writes none (the bulk load, an offline import), or a graph made by hand."""
    store_missing_title_lower(kb)
    store_missing_claim_status(kb)
    store_missing_claim_counts(kb)


def store_missing_title_lower(kb: KnowledgeBase) -> None:
    """Store the lower-cased title of papers written without one (cypher/title_lower.cypher's rule)."""
    papers = kb.execute(statement("papers_without_title_lower"))[0]["ids"]
    with kb.session() as session:
        for part in chunks(papers, NODES_PER_TRANSACTION):
            session.execute_write(store_title_lower, set(part))


def store_missing_claim_status(kb: KnowledgeBase) -> None:
    """Store the support status of claims written without one (cypher/claim_status.cypher's rule),
    then their papers' claim counts: a paper's claims in one transaction, as the scan lists them,
    so that its counts are stored once, not in every transaction."""
    claims = kb.execute(statement("claims_without_status"))[0]["ids"]
    with kb.session() as session:
        for part in chunks(claims, NODES_PER_TRANSACTION):
            session.execute_write(store_claim_status, set(part))


def store_missing_claim_counts(kb: KnowledgeBase) -> None:
    """Store the claim counts of papers that make claims but have none (cypher/claim_counts.cypher)."""
    papers = kb.execute(statement("papers_without_claim_counts"))[0]["ids"]
    with kb.session() as session:
        for part in chunks(papers, NODES_PER_TRANSACTION):
            session.execute_write(store_claim_status, set(), set(part))
