"""Pictures of a query's subgraph: an interactive HTML graph (needs `paperkg[viz]`, i.e. neo4j-viz).

``picture(kb, "ancestors", paper="2402.06618")`` runs the library query and draws what its rows
are about: the papers (``paper_id`` columns, the ``paper`` parameters) and claims
(``claim_id`` columns) it returns, and how they are connected:

* lineage (ancestors, descendants, citation paths, common ancestors): the citations among them;
* co-citation and coupling: for each pair, up to three papers citing both (co-citation) or
  works both cite (coupling), or the claims citing both (claim co-citation);
* claims: each claim with the paper making it, the sources it cites and what checking found,
  claims coloured by support status (the library's rule), sources by matched/checked, and
  ``CHECKED_AGAINST`` coloured by verdict;
* the main path (``main_path``, global or key-route): its papers in order, left to right, each
  captioned with its position, and only the citations that make the path's steps.

The result is a :class:`Picture`: it shows itself inline in a notebook, and ``save(path)``
writes a self-contained HTML file (``paperkg show QUERY -p ... --html FILE``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from paperkg.errors import MissingExtra, PaperkgError

# How each library query's rows are connected in its picture (others: the citations among
# them): the statement cypher/show_<link>.cypher finds what joins each pair.
PAIR_LINKS = {
    "cocited_with": "cociting",
    "cocitation_pairs": "cociting",
    "coupled_with": "shared_references",
    "claim_cocitation": "claims_citing_both",
}
LINKS_PER_PAIR = 3
MAX_NODES = 1500
# Queries whose rows are a path in order, each row naming the papers the path goes on to (citing
# it) in this column: drawn left to right, joined by the path's own citations only.
PATH_STEPS = {"main_path": "leads_to"}
PATH_SPACING = 160  # pixels between consecutive papers of a drawn path
PATH_VIEW_WIDTH = 1000  # pixels a drawn path is zoomed to fit at first


PAPER_COLOUR, ANCHOR_COLOUR = "#4C8EDA", "#1F4E8C"
STATUS_COLOURS = {
    "supported": "#3FA34D",
    "checked_unlisted": "#9CCC65",
    "unsupported": "#E0533A",
    "unverifiable": "#F0A030",
    "uncited": "#9E9E9E",
    "sources_missing": "#7E57C2",
}
SOURCE_COLOURS = {"checked": "#8E3B8A", "matched": "#C990C0", "unmatched": "#E4CCE2"}
VERDICT_COLOURS = {"supported": "#3FA34D", "not_supported": "#E0533A"}
REL_COLOURS = {"CITES": "#A5ABB6", "MAKES": "#FFC454", "SUPPORTS": "#3FA34D", "REFERS_TO": "#4C8EDA"}


class ShowError(PaperkgError, ValueError):
    """The query's rows name nothing to draw, or too much."""


@dataclass
class Subgraph:
    """What a picture shows, before styling: nodes and relationships as plain dicts."""

    query: str
    anchors: list[str] = field(default_factory=list)
    nodes: dict[str, dict[str, Any]] = field(default_factory=dict)
    relationships: list[dict[str, Any]] = field(default_factory=list)
    order: list[str] = field(default_factory=list)  # a path's papers, first to last (else empty)


def _ids(rows: Iterable[dict[str, Any]]) -> tuple[list[str], list[str], list[tuple[str, str]]]:
    """Paper ids, claim ids and paper pairs named by the rows, in first-seen order."""
    papers: dict[str, None] = {}
    claims: dict[str, None] = {}
    pairs: list[tuple[str, str]] = []
    for row in rows:
        for key, value in row.items():
            if key == "paper_id" or key.startswith("paper_id_"):
                if value:
                    papers[value] = None
            elif key == "claim_id" and value:
                claims[value] = None
            elif isinstance(value, list):
                for item in value:
                    if isinstance(item, dict) and item.get("paper_id"):
                        papers[item["paper_id"]] = None
        if row.get("paper_id_a") and row.get("paper_id_b"):
            pairs.append((row["paper_id_a"], row["paper_id_b"]))
    return list(papers), list(claims), pairs


def subgraph(kb, name: str, /, **params: Any) -> Subgraph:
    """Run library query `name` on `kb` and collect the subgraph its rows are about."""
    from paperkg.library import library

    lib = library()
    query = lib.get(name)
    rows = lib.run(kb, name, **params)
    anchors = [
        lib.resolve_paper(kb, params[p.name])
        for p in query.params
        if p.type == "paper" and params.get(p.name) is not None
    ]
    if name in PATH_STEPS:
        return path_subgraph(kb, name, rows, PATH_STEPS[name], anchors)
    papers, claims, pairs = _ids(rows)
    mode = PAIR_LINKS.get(name)
    if mode:
        pairs += [(anchor, paper) for anchor in anchors for paper in papers if paper != anchor]
        linked = (
            [row["id"] for row in kb.read(f"show_{mode}", pairs=[list(p) for p in pairs], per_pair=LINKS_PER_PAIR)]
            if pairs
            else []
        )
        if mode == "claims_citing_both":
            claims += [c for c in linked if c not in claims]
        else:
            papers += [p for p in linked if p not in papers]
    graph = Subgraph(name, anchors)
    paper_ids = list(dict.fromkeys(anchors + papers))
    if claims:
        _add_claims(kb, graph, claims)
    # Citations among the papers, except in a picture of claims: there the claims' sources
    # and the works they refer to say more than the paper citing each of those works.
    _add_papers(
        kb, graph, paper_ids + [n for n, node in graph.nodes.items() if node["label"] == "Paper"], citations=not claims
    )
    if not graph.nodes:
        raise ShowError(f"{name} returned no papers or claims to draw (try other parameters)")
    if len(graph.nodes) > MAX_NODES:
        raise ShowError(f"{name} would draw {len(graph.nodes)} nodes; lower its limit (at most {MAX_NODES})")
    return graph


def path_subgraph(
    kb, name: str, rows: Iterable[dict[str, Any]], steps: str = "leads_to", anchors: list[str] | None = None
) -> Subgraph:
    """A path's papers in order (rows with `paper_id` and `position`, first to last) and the
    citations that make its steps: each row's `steps` column names the papers citing it next on
    the path, and a step is drawn where that citation is in the graph."""
    rows = list(rows)
    graph = Subgraph(name, anchors or [])
    graph.order = list(dict.fromkeys(row["paper_id"] for row in rows))
    if not graph.order:
        raise ShowError(f"{name} returned no papers to draw (has `paperkg analyze` run?)")
    if len(graph.order) > MAX_NODES:
        raise ShowError(f"{name} would draw {len(graph.order)} nodes; lower its limit (at most {MAX_NODES})")
    _add_papers(kb, graph, graph.order, citations=False)
    graph.nodes = {paper: graph.nodes[paper] for paper in graph.order}  # in the path's order
    for row in rows:
        graph.nodes[row["paper_id"]]["position"] = row["position"]
    cites = {(row["source"], row["target"]) for row in kb.read("show_paper_cites", ids=graph.order)}
    for row in rows:
        for later in row[steps]:
            if (later, row["paper_id"]) in cites:
                graph.relationships.append({"type": "CITES", "source": later, "target": row["paper_id"]})
    return graph


def _add_papers(kb, graph: Subgraph, ids: list[str], citations: bool) -> None:
    ids = list(dict.fromkeys(ids))
    for row in kb.read("show_papers", ids=ids):
        graph.nodes[row["id"]] = {"label": "Paper", "anchor": row["id"] in graph.anchors, **row}
    if citations:
        for row in kb.read("show_paper_cites", ids=ids):
            graph.relationships.append({"type": "CITES", **row})


def _add_claims(kb, graph: Subgraph, ids: list[str]) -> None:
    for row in kb.read("show_claims", ids=ids):
        graph.nodes[row["id"]] = {"label": "Claim", **row}
        graph.nodes.setdefault(row["paper"], {"label": "Paper", "id": row["paper"]})
        graph.relationships.append({"type": "MAKES", "source": row["paper"], "target": row["id"]})
    for row in kb.read("show_claim_sources", ids=ids):
        source = graph.nodes.setdefault(
            row["id"],
            {"label": "Source", "id": row["id"], "key": row["key"], "matched": row["matched"], "checked": False},
        )
        if row["cites"]:
            graph.relationships.append({"type": "CITES", "source": row["claim"], "target": row["id"]})
        if row["verdict"]:
            source["checked"] = True
            graph.relationships.append(
                {
                    "type": "CHECKED_AGAINST",
                    "source": row["claim"],
                    "target": row["id"],
                    "verdict": row["verdict"],
                    "confidence": row["confidence"],
                }
            )
        if row["supports"]:
            graph.relationships.append({"type": "SUPPORTS", "source": row["id"], "target": row["claim"]})
        if row["work"]:
            graph.nodes.setdefault(row["work"], {"label": "Paper", "id": row["work"]})
            link = {"type": "REFERS_TO", "source": row["id"], "target": row["work"]}
            if link not in graph.relationships:
                graph.relationships.append(link)


# -- drawing -------------------------------------------------------------------------------

# The picture writes a caption inside its node on two short lines and cuts what does not fit, so
# a caption is a clipped title and the year, a claim's first words, a source's first author and
# year; the node's properties (shown when it is selected) hold the rest.
CAPTION_CHARS = 10


def _clip(text: str, chars: int = CAPTION_CHARS) -> str:
    """The words of `text` that fit in `chars` characters, with `…` where some were left out."""
    words = text.split()
    kept: list[str] = []
    for word in words:
        if len(" ".join(kept + [word])) > chars:
            break
        kept.append(word)
    if not kept:
        return text[: chars - 1] + "…" if len(text) > chars else text
    return " ".join(kept) + ("…" if len(kept) < len(words) else "")


def short_title(title: str) -> str:
    """A title as a caption: the part before its colon (`RootGraph`), clipped."""
    head, colon, _ = title.partition(":")
    return _clip(head if colon else title)


def caption(node: dict[str, Any]) -> str:
    """The caption a node is drawn with: short title (year), a claim's first words, a source's key."""
    if node["label"] == "Paper":
        title = (
            short_title(node["title"])
            if node.get("title")
            else _clip(node.get("arxiv_id") or node.get("doi") or node["id"])
        )
        return f"{title} ({node['year']})" if node.get("year") else title
    if node["label"] == "Claim":
        return _clip(node.get("text") or node["id"], 2 * CAPTION_CHARS)
    key = node.get("key") or node["id"]
    author, _, year = key.rpartition(", ")
    return f"{_clip(author.split(' et al.')[0].split(' & ')[0])} {year}" if author else _clip(key)


def source_state(node: dict[str, Any]) -> str:
    return "checked" if node.get("checked") else "matched" if node.get("matched") else "unmatched"


def visualization(graph: Subgraph):
    """The subgraph as a neo4j-viz VisualizationGraph, styled like paperkg's Browser style sheet."""
    try:
        from neo4j_viz import Node, Relationship, VisualizationGraph
    except ImportError:
        raise MissingExtra("pictures need neo4j-viz: pip install 'paperkg[viz]'") from None

    nodes = []
    # A path is laid out left to right in its order; in a zigzag where a step skips papers (a
    # key-route path's branches), so that the longer steps do not hide behind the short ones.
    place = {node_id: index for index, node_id in enumerate(graph.order)}
    straight = not graph.order or all(place[rel["source"]] == place[rel["target"]] + 1 for rel in graph.relationships)
    for node_id, node in graph.nodes.items():
        label = node["label"]
        if label == "Paper":
            colour, size = (ANCHOR_COLOUR, 44) if node.get("anchor") else (PAPER_COLOUR, 36)
        elif label == "Claim":
            colour, size = STATUS_COLOURS[node["status"]], 32
        else:
            colour, size = SOURCE_COLOURS[source_state(node)], 28
        properties = {key: value for key, value in node.items() if value is not None and key != "anchor"}
        if node_id in place:
            index = place[node_id]
            nodes.append(
                Node(
                    id=node_id,
                    caption=f"{node['position']}. {caption(node)}",
                    color=colour,
                    size=size,
                    properties=properties,
                    x=index * PATH_SPACING - (len(place) - 1) * PATH_SPACING // 2,  # centred on the view
                    y=0 if straight else (index % 2) * PATH_SPACING // 2,
                    pinned=True,
                )
            )
            continue
        nodes.append(Node(id=node_id, caption=caption(node), color=colour, size=size, properties=properties))
    relationships = []
    for index, rel in enumerate(graph.relationships):
        colour = VERDICT_COLOURS[rel["verdict"]] if rel["type"] == "CHECKED_AGAINST" else REL_COLOURS[rel["type"]]
        relationships.append(
            Relationship(
                id=f"r{index}",
                source=rel["source"],
                target=rel["target"],
                color=colour,
                caption=rel.get("verdict") or rel["type"],
                width=3 if rel["type"] == "SUPPORTS" else 1,
                properties={key: value for key, value in rel.items() if value is not None},
            )
        )
    picture = VisualizationGraph(nodes=nodes, relationships=relationships)
    # The legend names what this picture shows, nothing else.
    shown = {
        (
            node["label"],
            node.get("anchor"),
            node.get("status"),
            source_state(node) if node["label"] == "Source" else None,
        )
        for node in graph.nodes.values()
    }
    legend: dict[str, str] = {}
    if any(label == "Paper" and not anchor for label, anchor, _, _ in shown):
        legend["paper"] = PAPER_COLOUR
    if any(label == "Paper" and anchor for label, anchor, _, _ in shown):
        legend["paper asked about"] = ANCHOR_COLOUR
    legend.update(
        {
            f"claim: {status}": colour
            for status, colour in STATUS_COLOURS.items()
            if ("Claim", None, status, None) in shown
        }
    )
    legend.update(
        {
            f"source: {state}": colour
            for state, colour in SOURCE_COLOURS.items()
            if ("Source", None, None, state) in shown
        }
    )
    kinds = {(rel.get("verdict") and f"checked: {rel['verdict']}") or rel["type"] for rel in graph.relationships}
    rel_legend = {
        kind: colour
        for kind, colour in [*REL_COLOURS.items(), *((f"checked: {v}", c) for v, c in VERDICT_COLOURS.items())]
        if kind in kinds
    }
    picture.set_legend(nodes=legend, relationships=rel_legend)
    return picture


class Picture:
    """A query's subgraph, drawn: inline in a notebook, or saved as an HTML file."""

    def __init__(self, graph: Subgraph):
        self.subgraph = graph
        self.graph = visualization(graph)  # the neo4j-viz VisualizationGraph, to restyle at will

    def __repr__(self) -> str:
        return (
            f"<Picture of {self.subgraph.query}: {len(self.subgraph.nodes)} nodes, "
            f"{len(self.subgraph.relationships)} relationships>"
        )

    def render(self, height: str = "600px"):
        """An IPython HTML object (what a notebook displays)."""
        if self.subgraph.order:  # a path: at the places `visualization` gave its papers, all in view
            zoom = min(1.0, PATH_VIEW_WIDTH / (len(self.subgraph.order) * PATH_SPACING))
            return self.graph.render(height=height, on_dangling="error", layout="free", initial_zoom=zoom)
        return self.graph.render(height=height, on_dangling="error")

    def html(self, height: str = "800px") -> str:
        """The picture as a self-contained HTML document (scripts inlined, nothing fetched)."""
        return self.render(height=height).data

    def _repr_html_(self) -> str:
        return self.render().data

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        path.write_text(self.html(), encoding="utf-8")
        return path


def picture(kb, name: str, /, **params: Any) -> Picture:
    """Run library query `name` and draw its subgraph (see the module's docstring)."""
    return Picture(subgraph(kb, name, **params))
