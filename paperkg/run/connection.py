"""Connecting as a command or a notebook does: the driver (paperkg.db), then the graph made
whole if a load stopped before it finished (paperkg.run.lock.complete_unfinished_load)."""

from __future__ import annotations

from paperkg.db import KnowledgeBase
from paperkg.db import connect as open_knowledge_base
from paperkg.run.lock import complete_unfinished_load


def connect(
    uri: str | None = None,
    auth: tuple[str, str] | None = None,
    database: str | None = None,
    home: str | None = None,
    start: bool = True,
) -> KnowledgeBase:
    """Connect to the configured Neo4j (or the managed local one, started when needed), and
    finish or undo a load that stopped before it finished."""
    kb = open_knowledge_base(uri=uri, auth=auth, database=database, home=home, start=start)
    try:
        complete_unfinished_load(kb)
    except BaseException:
        kb.close()
        raise
    return kb
