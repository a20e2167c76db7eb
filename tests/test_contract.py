"""The graph contract (paperkg/graph/contract.py) is the graph: what ingestion writes, what the
README shows and what the admin import restores are the one declaration."""

from __future__ import annotations

import re
from pathlib import Path

from paperkg.graph.contract import ALWAYS_LISTS, NODES, RELATIONSHIPS, graph_table, properties
from paperkg.graph.identity import Evidence
from paperkg.run.ingest import ingest_paths

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "corpus"
# Labels and types as parameters: the contract's names are compared, never spliced into Cypher.
NODE_KEYS = "MATCH (n) WHERE $label IN labels(n) UNWIND keys(n) AS key RETURN DISTINCT key"
RELATIONSHIP_KEYS = """
MATCH (a)-[r]->(b) WHERE type(r) = $kind AND $start IN labels(a) AND $end IN labels(b)
UNWIND keys(r) AS key RETURN DISTINCT key
"""


def test_every_property_ingestion_writes_is_declared_and_every_declared_one_is_written(kb):
    ingest_paths(kb, [EXAMPLES])
    for label in NODES:
        found = {row["key"] for row in kb.cypher(NODE_KEYS, label=label)}
        key, _ = NODES[label]
        assert found - {key} <= set(properties(label)), label
    written = {row["key"] for row in kb.cypher("MATCH (c:Claim) UNWIND keys(c) AS key RETURN DISTINCT key")}
    assert {"status", "quotes", "flags", "text"} <= written
    for kind, start, end, declared in RELATIONSHIPS.values():
        found = {row["key"] for row in kb.cypher(RELATIONSHIP_KEYS, kind=kind, start=start, end=end)}
        assert found <= set(declared), (kind, start, end)


def test_the_lists_restored_after_an_import_are_the_declared_always_set_lists():
    text = (ROOT / "cypher" / "restore_empty_lists.cypher").read_text()
    restored = set(re.findall(r"\b(\w)\.(\w+) = (?:coalesce|\[\])", text))
    variables = {"c": "Claim", "d": "Document"}
    assert {(variables[v], name) for v, name in restored} == {
        (label, name) for label, names in ALWAYS_LISTS.items() for name in names
    }
    for label, names in ALWAYS_LISTS.items():
        assert all(NODES[label][1][name].endswith("[]") for name in names)


def test_the_readme_shows_the_contract_table():
    assert graph_table() in (ROOT / "README.md").read_text()


def test_an_evidence_nodes_properties_are_the_contracts():
    evidence = Evidence("0704.0001", "10.1000/x", "a title", 2007, "fallback")
    assert evidence.properties() == {
        "arxiv_id": "0704.0001",
        "doi": "10.1000/x",
        "title_norm": "a title",
        "year": 2007,
        "fallback": "fallback",
    }
    assert list(evidence.properties()) == list(NODES["Evidence"][1])
