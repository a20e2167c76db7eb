"""Restructuring keeps the graph and the answers: the seeds and a 2k-paper synthetic corpus give
the section digests recorded before it (tests/golden.py says how they were made)."""

from __future__ import annotations

import json
from pathlib import Path

from golden import reference, synthetic_corpus

GOLDEN = Path(__file__).resolve().parent / "fixtures" / "golden"


def _recorded(name: str) -> dict[str, str]:
    return json.loads((GOLDEN / name).read_text())


def _changed(found: dict[str, str], recorded: dict[str, str]) -> dict[str, tuple]:
    """The recorded sections whose digest differs (queries added since have no record)."""
    return {
        section: (digest, found.get(section)) for section, digest in recorded.items() if found.get(section) != digest
    }


def test_the_seeds_give_the_recorded_graph_and_answers(kb, seeds_dir):
    assert _changed(reference(kb, seeds_dir), _recorded("seeds.json")) == {}


def test_a_synthetic_corpus_gives_the_recorded_graph_and_answers(kb, tmp_path):
    corpus = synthetic_corpus(tmp_path / "corpus")
    assert _changed(reference(kb, corpus), _recorded("synthetic.json")) == {}
