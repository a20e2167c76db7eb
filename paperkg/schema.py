"""Applying cypher/schema.cypher: constraints and indexes, then waiting until they are online;
then the derived properties those indexes serve, where a node lacks them."""

from __future__ import annotations

from paperkg.db import KnowledgeBase
from paperkg.statements import statement, statements

INDEX_WAIT_SECONDS = 300


def apply_schema(kb: KnowledgeBase) -> None:
    for text in statements("schema"):
        kb.execute(text.rstrip(";"))
    kb.execute("CALL db.awaitIndexes($seconds)", seconds=INDEX_WAIT_SECONDS)
    kb.execute(statement("backfill_title_lower"))
