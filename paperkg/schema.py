"""Applying cypher/schema.cypher: constraints and indexes, then waiting until they are online;
then the derived properties those indexes serve, where a node lacks them."""

from __future__ import annotations

from paperkg.cypher_files import statement, statements
from paperkg.db import KnowledgeBase
from paperkg.ingest.graph.write import chunks, store_claim_status

INDEX_WAIT_SECONDS = 300
CLAIMS_PER_TRANSACTION = 20_000


def apply_schema(kb: KnowledgeBase) -> None:
    for text in statements("schema"):
        kb.execute(text.rstrip(";"))
    kb.execute(statement("await_indexes"), seconds=INDEX_WAIT_SECONDS)
    kb.execute(statement("backfill_title_lower"))
    store_missing_claim_status(kb)


def store_missing_claim_status(kb: KnowledgeBase) -> None:
    """Store the support status of claims written without one (cypher/claim_status.cypher's rule)."""
    claims = [row["id"] for row in kb.execute(statement("claims_without_status"))]
    with kb.session() as session:
        for part in chunks(claims, CLAIMS_PER_TRANSACTION):
            session.execute_write(store_claim_status, set(part))
