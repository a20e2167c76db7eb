"""A full, canonical dump of the graph, for comparing two graphs built different ways.

Papers are named by what identifies the work (arXiv id, DOI, normalised title, fallback),
not by paper_id, because a surrogate key depends on which document created the node first.
Run bookkeeping (run ids, timestamps, the ingestion lock's node) is left out, and so is where a
document was read from (its `path`): a document is its content, wherever it lies.
"""

from __future__ import annotations

from typing import Any

VOLATILE = {"paper_id", "run_id", "ingested_at", "started_at", "ended_at", "path"}

DUMP_NODES = """
MATCH (n) WHERE NOT n:IngestRun AND NOT n:IngestLock
RETURN elementId(n) AS id, labels(n) AS labels, properties(n) AS props
"""
DUMP_RELATIONSHIPS = """
MATCH (a)-[r]->(b) WHERE NOT a:IngestRun
RETURN elementId(a) AS start, type(r) AS type, elementId(b) AS end, properties(r) AS props
"""


def _name(labels: list[str], props: dict[str, Any]) -> tuple:
    label = labels[0]
    if label == "Paper":
        return (label, props.get("arxiv_id"), props.get("doi"), props.get("title_norm"), props.get("fallback"))
    key = {"Claim": "claim_id", "Source": "source_id", "Document": "doc_id"}[label]
    return (label, props[key])


def _canonical(props: dict[str, Any]) -> tuple:
    return tuple(sorted((k, repr(sorted(v) if k == "docs" else v)) for k, v in props.items() if k not in VOLATILE))


def named(kb) -> tuple[list[tuple], list[tuple]]:
    """Every node as (name, properties) and every relationship as (start name, type, end name,
    properties), duplicates kept: two nodes of one name are one work (or document) twice."""
    names = {}
    nodes = []
    for row in kb.cypher(DUMP_NODES):
        name = _name(row["labels"], row["props"])
        names[row["id"]] = name
        nodes.append((name, _canonical(row["props"])))
    relationships = [(names[row["start"]], row["type"], names[row["end"]], _canonical(row["props"]))
                     for row in kb.cypher(DUMP_RELATIONSHIPS)]
    return nodes, relationships


def dump(kb) -> dict[str, set]:
    nodes, relationships = named(kb)
    assert len(nodes) == len({name for name, _ in nodes}), "two nodes share a name: duplicate works"
    return {"nodes": set(nodes), "relationships": set(relationships)}
