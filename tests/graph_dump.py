"""A full, canonical dump of the graph, for comparing two graphs built different ways.

Every node is named by its key: a paper's `paper_id` is a function of its evidence, so two
graphs of the same documents name their papers alike. Run bookkeeping (run ids, timestamps,
the ingestion lock's node, the runs' change sets) and where a document lies (its path) are left out.
"""

from __future__ import annotations

from typing import Any

from paperkg.graph.contract import ANALYSIS_PROPERTIES, NODES

# `paperkg analyze`'s results and `paperkg precompute`'s answers are left out too: functions of
# the graph, written only when asked for (tests/test_precompute.py compares the answers).
VOLATILE = {"run_id", "ingested_at", "started_at", "ended_at", "path", *ANALYSIS_PROPERTIES}

DUMP_NODES = """
MATCH (n)
WHERE NOT n:IngestRun AND NOT n:IngestLock AND NOT n:GraphFormat AND NOT n:AnalysisRun AND NOT n:Cluster AND NOT n:ChangeSet AND NOT n:Answer
RETURN elementId(n) AS id, labels(n) AS labels, properties(n) AS props
"""
DUMP_RELATIONSHIPS = """
MATCH (a)-[r]->(b) WHERE NOT a:IngestRun
RETURN elementId(a) AS start, type(r) AS type, elementId(b) AS end, properties(r) AS props
"""


def _name(labels: list[str], props: dict[str, Any], document_names: dict[str, str]) -> tuple:
    label = labels[0]
    if label == "Document" and document_names:
        return (label, document_names[props["doc_id"]])
    key = NODES[label][0]
    return (label, props[key])


def _canonical(props: dict[str, Any], document_names: dict[str, str]) -> tuple:
    def value(key: str, found: Any) -> Any:
        if key == "docs":
            return sorted(document_names.get(doc, doc) for doc in found)
        return document_names.get(found, found) if key in ("doc_id", "sha256") else found

    return tuple(sorted((k, repr(value(k, v))) for k, v in props.items() if k not in VOLATILE))


def named(kb, by_file_name: bool = False) -> tuple[list[tuple], list[tuple]]:
    """Every node as (name, properties) and every relationship as (start name, type, end name,
    properties), duplicates kept: two nodes of one name are one work (or document) twice. With
    `by_file_name`, documents are named by their file's name rather than by their content (so an
    edited document keeps its name, and what it asserted can be compared)."""
    rows = kb.cypher(DUMP_NODES)
    document_names = {
        row["props"]["doc_id"]: row["props"]["path"].rpartition("/")[2]
        for row in rows
        if by_file_name and "Document" in row["labels"]
    }
    names = {}
    nodes = []
    for row in rows:
        name = _name(row["labels"], row["props"], document_names)
        names[row["id"]] = name
        nodes.append((name, _canonical(row["props"], document_names)))
    relationships = [
        (names[row["start"]], row["type"], names[row["end"]], _canonical(row["props"], document_names))
        for row in kb.cypher(DUMP_RELATIONSHIPS)
    ]
    return nodes, relationships


def dump(kb, by_file_name: bool = False) -> dict[str, set]:
    nodes, relationships = named(kb, by_file_name)
    assert len(nodes) == len({name for name, _ in nodes}), "two nodes share a name: duplicate works"
    return {"nodes": set(nodes), "relationships": set(relationships)}
