"""A full, canonical dump of the graph, for comparing two graphs built different ways.

Papers are named by what identifies the work (arXiv id, DOI, normalised title, fallback),
not by paper_id, because a surrogate key depends on which document created the node first.
Run bookkeeping (run ids, timestamps, the ingestion lock's node) is left out.
"""

from __future__ import annotations

from typing import Any

VOLATILE = {"paper_id", "run_id", "ingested_at", "started_at", "ended_at"}

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


def dump(kb) -> dict[str, set]:
    names = {}
    nodes = set()
    for row in kb.cypher(DUMP_NODES):
        name = _name(row["labels"], row["props"])
        names[row["id"]] = name
        nodes.add((name, _canonical(row["props"])))
    relationships = {(names[row["start"]], row["type"], names[row["end"]], _canonical(row["props"]))
                     for row in kb.cypher(DUMP_RELATIONSHIPS)}
    assert len(names) == len(set(names.values())), "two nodes share a name: duplicate works"
    return {"nodes": nodes, "relationships": relationships}
