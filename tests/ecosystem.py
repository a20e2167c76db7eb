"""The graphs shared by the ecosystem tests (Browser, notebook, show, exports, py2neo).

Ingesting a corpus takes seconds, so a module that needs one reuses the graph when it still
holds exactly what the last loading left (the same corpus, the same counts per label and type);
any other test that changed the graph in between makes the next module load it again.
"""

from __future__ import annotations

from pathlib import Path

from paperkg.db import KnowledgeBase
from paperkg.run.ingest import ingest_paths

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "corpus"

_loaded: tuple[Path, dict] | None = None


def seed(kb: KnowledgeBase, corpus: Path) -> KnowledgeBase:
    """`kb` holding the documents of `corpus` (the seeds, or EXAMPLES) and nothing else."""
    global _loaded
    if _loaded is not None and _loaded[0] == corpus and kb.stats() == _loaded[1]:
        return kb
    kb.reset()
    report = ingest_paths(kb, [corpus])
    assert report.ok, report.to_dict()
    _loaded = (corpus, kb.stats())
    return kb


def examples(kb: KnowledgeBase) -> KnowledgeBase:
    """`kb` holding examples/corpus, which every example in the README, the guide and the notebook uses."""
    return seed(kb, EXAMPLES)


def forget() -> None:
    """Make the next `seed` ingest again (after a test that changed the graph)."""
    global _loaded
    _loaded = None
