"""Issue 15's differential check on a small corpus with the planted identity cases: the graph of
one set of documents, built in shuffled orders, batch sizes, through ingest, sync and the admin
import and a bulk load, half in bulk and half by transactions, from another path and through
retract-and-re-add histories, is one graph."""

from __future__ import annotations

from differential import differential_check
from synth import generate


def test_the_graph_is_a_function_of_the_set_of_documents(kb, tmp_path):
    corpus = tmp_path / "corpus"
    generate(corpus, papers=100, pages=4, seed=11, identity_cases=True)
    outcomes = differential_check(kb, corpus, tmp_path / "check", seed=11)
    assert len(outcomes) == 17
    assert [outcome.describe() for outcome in outcomes if not outcome.equal] == []
