"""A query's subgraph as a file for other tools: GraphML and VOSviewer JSON.

``graphml(kb, "ancestors", paper="2402.06618")`` and ``vosviewer(kb, "cocited_with", paper=...)``
run the library query and export the subgraph `paperkg show` would draw (`paperkg.show.subgraph`:
the papers, claims and sources its rows are about, and the relationships between them), with
what the last `paperkg analyze` wrote to each paper where it has run:

* **GraphML** (Gephi, Cytoscape, yEd, igraph, networkx): a directed graph; each node keeps its
  graph key as its id, `type` (Paper, Claim or Source), `label` (the picture's caption) and
  its properties (a paper's title, year, arxiv_id, doi, pagerank, citations, references,
  cocitation_cluster, coupling_cluster, main_path, key_route; a claim's text, kind, section,
  status and the paper making it; a source's key, matched, checked), `asked_about` on the
  papers the query was asked about; each edge its `type` (CITES, MAKES, SUPPORTS, REFERS_TO,
  CHECKED_AGAINST, with `verdict` and `confidence`) and, on a main path, its `position`. A
  property without a value is left out of that node.
* **VOSviewer JSON** (VOSviewer and VOSviewer Online's map format): ``network.items`` with
  id, label, description, url (a paper's arXiv or DOI address), cluster (a paper's co-citation
  cluster, numbered from 1 within the file, largest first as `analyze` numbers them), weights
  (`Citations`, `References`) and scores (`PageRank`, `Year`); ``network.links`` with
  source_id, target_id and strength (VOSviewer's links are undirected: the relationships
  between two nodes, either way, make one link whose strength is their number);
  ``network.clusters`` with each cluster's label.

`write_graphml` and `write_vosviewer` write the files (`paperkg export --graphml FILE` and
`--vosviewer FILE` with `--query NAME -p KEY=VALUE ...`).
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

from paperkg.graph.contract import ANALYSIS_PROPERTIES
from paperkg.rdf import paper_iri
from paperkg.show import Subgraph, caption, subgraph

GRAPHML_NAMESPACE = "http://graphml.graphdrawing.org/xmlns"
GRAPHML_SCHEMA = "http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd"
XSI = "http://www.w3.org/2001/XMLSchema-instance"
# What the analysis wrote, as read for the papers of a subgraph (cypher/export_paper_analysis.cypher):
# its results, not its bookkeeping (the next step of a key route, the run).
EXPORTED_ANALYSIS = tuple(key for key in ANALYSIS_PROPERTIES if key not in ("key_route_next", "analysis_run"))
# The node properties of the subgraph that are not exported as properties of their own: the
# label becomes `type`, the anchor flag `asked_about`, the id the node's id.
RENAMED = {"label": "type", "anchor": "asked_about"}
VOSVIEWER_WEIGHTS = {"Citations": "citations", "References": "references"}
VOSVIEWER_SCORES = {"PageRank": "pagerank", "Year": "year"}
MAX_VOSVIEWER_CLUSTER = 1000  # VOSviewer numbers clusters from 1 to 1000


def exported_subgraph(kb, name: str, /, **params: Any) -> tuple[Subgraph, dict[str, dict[str, Any]]]:
    """The query's subgraph (as `paperkg show` selects it) and, by paper id, what the analysis
    wrote to each of its papers (the papers the analysis has not seen have no entry)."""
    graph = subgraph(kb, name, **params)
    papers = [node_id for node_id, node in graph.nodes.items() if node["label"] == "Paper"]
    analysis = {
        row["id"]: row
        for row in kb.read("export_paper_analysis", ids=papers)
        if any(row[key] is not None for key in EXPORTED_ANALYSIS)
    }
    return graph, analysis


def _node_properties(node: dict[str, Any], analysis: dict[str, Any] | None) -> dict[str, Any]:
    properties: dict[str, Any] = {"type": node["label"], "label": caption(node)}
    for key, value in node.items():
        if key == "id" or value is None:
            continue
        if key == "anchor":
            if node["label"] == "Paper":
                properties["asked_about"] = bool(value)
            continue
        if key != "label":
            properties[key] = value
    for key in EXPORTED_ANALYSIS:
        if analysis and analysis.get(key) is not None:
            properties[key] = analysis[key]
    return properties


# -- GraphML -------------------------------------------------------------------------------


def _graphml_type(values: list[Any]) -> str:
    """The GraphML type that holds every value of one attribute."""
    if all(isinstance(value, bool) for value in values):
        return "boolean"
    if all(isinstance(value, int) and not isinstance(value, bool) for value in values):
        return "long"
    if all(isinstance(value, int | float) and not isinstance(value, bool) for value in values):
        return "double"
    return "string"


def _graphml_text(value: Any, kind: str) -> str:
    if kind == "boolean":
        return "true" if value else "false"
    if kind == "double":
        return repr(float(value))
    return str(value)


def graphml_document(graph: Subgraph, analysis: dict[str, dict[str, Any]] | None = None) -> str:
    """The subgraph as a GraphML document (see the module's docstring)."""
    analysis = analysis or {}
    nodes = {node_id: _node_properties(node, analysis.get(node_id)) for node_id, node in graph.nodes.items()}
    edges = [{key: value for key, value in rel.items() if value is not None} for rel in graph.relationships]
    root = ElementTree.Element(
        "graphml",
        {"xmlns": GRAPHML_NAMESPACE, "xmlns:xsi": XSI, "xsi:schemaLocation": f"{GRAPHML_NAMESPACE} {GRAPHML_SCHEMA}"},
    )
    keys: dict[tuple[str, str], tuple[str, str]] = {}  # (for, name) → (key id, type)
    for domain, items in (("node", list(nodes.values())), ("edge", edges)):
        names = dict.fromkeys(key for item in items for key in item if key not in ("source", "target"))
        for name in names:
            kind = _graphml_type([item[name] for item in items if name in item])
            key_id = f"{domain[0]}_{name}"
            keys[domain, name] = (key_id, kind)
            ElementTree.SubElement(root, "key", {"id": key_id, "for": domain, "attr.name": name, "attr.type": kind})
    body = ElementTree.SubElement(root, "graph", {"id": graph.query, "edgedefault": "directed"})
    for node_id, properties in nodes.items():
        element = ElementTree.SubElement(body, "node", {"id": node_id})
        for name, value in properties.items():
            key_id, kind = keys["node", name]
            ElementTree.SubElement(element, "data", {"key": key_id}).text = _graphml_text(value, kind)
    for index, edge in enumerate(edges):
        element = ElementTree.SubElement(
            body, "edge", {"id": f"e{index}", "source": edge["source"], "target": edge["target"]}
        )
        for name, value in edge.items():
            if name in ("source", "target"):
                continue
            key_id, kind = keys["edge", name]
            ElementTree.SubElement(element, "data", {"key": key_id}).text = _graphml_text(value, kind)
    ElementTree.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ElementTree.tostring(root, encoding="unicode") + "\n"


def graphml(kb, name: str, /, **params: Any) -> str:
    """Run library query `name` and return its subgraph as a GraphML document."""
    return graphml_document(*exported_subgraph(kb, name, **params))


def write_graphml(kb, path: str | Path, name: str, /, **params: Any) -> tuple[int, int]:
    """Write query `name`'s subgraph to `path` as GraphML; returns (nodes, edges)."""
    graph, analysis = exported_subgraph(kb, name, **params)
    Path(path).write_text(graphml_document(graph, analysis), encoding="utf-8")
    return len(graph.nodes), len(graph.relationships)


# -- VOSviewer -----------------------------------------------------------------------------


def _description(node: dict[str, Any]) -> str:
    """What VOSviewer shows for a selected item (HTML, escaped)."""
    if node["label"] == "Paper":
        parts = [node.get("title") or node.get("doi") or node.get("arxiv_id") or node["id"]]
        parts += [str(node["year"])] if node.get("year") else []
    elif node["label"] == "Claim":
        parts = [node.get("text") or node["id"]] + ([f"status: {node['status']}"] if node.get("status") else [])
    else:
        parts = [node.get("key") or node["id"]]
    return "<br>".join(html.escape(part) for part in parts)


def vosviewer_network(graph: Subgraph, analysis: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    """The subgraph as a VOSviewer JSON map (see the module's docstring)."""
    analysis = analysis or {}
    numbers = sorted(
        {row["cocitation_cluster"] for row in analysis.values() if row.get("cocitation_cluster") is not None}
    )[:MAX_VOSVIEWER_CLUSTER]
    cluster_of = {number: index + 1 for index, number in enumerate(numbers)}
    labels: dict[int, str] = {}
    items = []
    for node_id, node in graph.nodes.items():
        item: dict[str, Any] = {"id": node_id, "label": caption(node), "description": _description(node)}
        found = analysis.get(node_id, {})
        if node["label"] == "Paper":
            address = paper_iri(node)
            if address.startswith("https://"):
                item["url"] = address
            if found.get("cocitation_cluster") in cluster_of:
                item["cluster"] = cluster_of[found["cocitation_cluster"]]
                labels.setdefault(item["cluster"], found.get("cocitation_label") or "")
            values = {**node, **found}
            weights = {name: values[key] for name, key in VOSVIEWER_WEIGHTS.items() if values.get(key) is not None}
            scores = {name: values[key] for name, key in VOSVIEWER_SCORES.items() if values.get(key) is not None}
            if weights:
                item["weights"] = weights
            if scores:
                item["scores"] = scores
        items.append(item)
    strengths: dict[frozenset[str], int] = {}
    ends: dict[frozenset[str], tuple[str, str]] = {}
    for rel in graph.relationships:
        pair = frozenset((rel["source"], rel["target"]))
        if len(pair) < 2:
            continue
        ends.setdefault(pair, (rel["source"], rel["target"]))
        strengths[pair] = strengths.get(pair, 0) + 1
    links = [{"source_id": a, "target_id": b, "strength": strengths[pair]} for pair, (a, b) in ends.items()]
    clusters = [{"cluster": number, "label": labels[number]} for number in sorted(labels)]
    return {"network": {"items": items, "links": links, "clusters": clusters}}


def vosviewer(kb, name: str, /, **params: Any) -> dict[str, Any]:
    """Run library query `name` and return its subgraph as a VOSviewer JSON map (a dict)."""
    return vosviewer_network(*exported_subgraph(kb, name, **params))


def write_vosviewer(kb, path: str | Path, name: str, /, **params: Any) -> tuple[int, int]:
    """Write query `name`'s subgraph to `path` as a VOSviewer JSON map; returns (items, links)."""
    network = vosviewer(kb, name, **params)
    Path(path).write_text(json.dumps(network, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return len(network["network"]["items"]), len(network["network"]["links"])
