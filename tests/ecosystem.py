"""The seeded graph shared by the ecosystem tests (Browser, notebook, show, exports, py2neo).

Ingesting the four seeds takes seconds, so a module that needs them reuses the graph when it
still holds exactly what the last seeding left (same counts per label and type); any other
test that changed the graph in between makes the next module seed it again.
"""

from __future__ import annotations

from pathlib import Path

from paperkg.db import KnowledgeBase
from paperkg.ingestion import ingest_paths

_seeded_stats: dict | None = None


def seed(kb: KnowledgeBase, seeds_dir: Path) -> KnowledgeBase:
    """`kb` holding the four seeds and nothing else."""
    global _seeded_stats
    if _seeded_stats is not None and kb.stats() == _seeded_stats:
        return kb
    kb.reset()
    report = ingest_paths(kb, [seeds_dir])
    assert report.ok, report.to_dict()
    _seeded_stats = kb.stats()
    return kb


def forget() -> None:
    """Make the next `seed` ingest again (after a test that changed the graph)."""
    global _seeded_stats
    _seeded_stats = None
