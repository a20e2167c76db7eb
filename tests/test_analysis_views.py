"""A query's subgraph exported as GraphML and as a VOSviewer JSON map, and the main path drawn,
on tests/test_analysis.py's hand-worked graphs: the planted two blocks (works 1–8, citing papers
11–16) and the ladder (numbered from 101 here), with an invented claim-check page citing two
other works, ingested together and analyzed once."""

from __future__ import annotations

import json
from itertools import pairwise
from pathlib import Path

import pytest
from test_analysis import BLOCKS, LADDER, arxiv, write_cards
from test_show import drawn, opened_in_chromium

from paperkg.analysis import analyze
from paperkg.cli import main
from paperkg.export import graphml, vosviewer
from paperkg.run.ingest import ingest_paths
from paperkg.show import PATH_SPACING, picture

LADDER_FROM = 100  # the ladder's paper n is 2001.00(100 + n)
FIXTURES = Path(__file__).resolve().parent / "fixtures"
PAGE = "2412.00077"  # an invented page (tests/fixtures/analysis/): one claim checked, not supported


def key(number: int) -> str:
    return f"arxiv:{arxiv(number)}"


@pytest.fixture(scope="module")
def graph(session_kb, tmp_path_factory):
    cards = tmp_path_factory.mktemp("views")
    write_cards(cards / "blocks", BLOCKS)
    write_cards(
        cards / "ladder",
        {
            n + LADDER_FROM: (title, year, [c + LADDER_FROM for c in cites])
            for n, (title, year, cites) in LADDER.items()
        },
    )
    session_kb.reset()
    report = ingest_paths(session_kb, [cards / "blocks", cards / "ladder", FIXTURES / "analysis"])
    assert report.ok, [d.error for d in report.documents if d.error]
    analyze(session_kb, key_routes=2)
    return session_kb


def pageranks(kb) -> dict[str, float]:
    return {row["id"]: row["rank"] for row in kb.cypher("MATCH (p:Paper) RETURN p.paper_id AS id, p.pagerank AS rank")}


def cluster_numbers(kb) -> tuple[int, int, int]:
    """The co-citation clusters of the roots (works 1–4) and the leaves (5–8), and the coupling
    cluster of the papers citing the roots (11–13), as the library reads them."""
    roots = kb.query("cluster_of", paper=arxiv(1))[0]["cluster"]
    leaves = kb.query("cluster_of", paper=arxiv(5))[0]["cluster"]
    citing = kb.query("cluster_of", paper=arxiv(11), network="coupling")[0]["cluster"]
    return roots, leaves, citing


# -- GraphML ---------------------------------------------------------------------------------

# Paper 11 cites works 1–5: its lineage at depth 1 is those five works and the five citations.
# Works 1–4 are each cited by 11–13, work 5 by 11 and 14–16 (citations); 11 cites 5 (references).
WORKS = {
    1: ("Root Imaging with Lasers", 2015, "Root… (2015)", 3),
    2: ("Root Imaging at Night", 2015, "Root… (2015)", 3),
    3: ("Root Imaging in Clay", 2016, "Root… (2016)", 3),
    4: ("Root Imaging from Drones", 2016, "Root… (2016)", 3),
    5: ("Leaf Counting with Phones", 2015, "Leaf… (2015)", 4),
}


def test_graphml_of_a_lineage_parses_back_with_every_node_edge_and_attribute(graph):
    import networkx

    text = graphml(graph, "ancestors", paper=arxiv(11), depth=1)
    parsed = networkx.parse_graphml(text)
    assert isinstance(parsed, networkx.DiGraph)
    ranks = pageranks(graph)
    roots, leaves, citing = cluster_numbers(graph)
    expected = {
        key(11): {
            "type": "Paper",
            "label": "Citing… (2018)",
            "title": "Citing Roots One",
            "year": 2018,
            "arxiv_id": arxiv(11),
            "asked_about": True,
            "pagerank": ranks[key(11)],
            "citations": 0,
            "references": 5,
            "coupling_cluster": citing,
        }
    }
    for number, (title, year, label, citations) in WORKS.items():
        expected[key(number)] = {
            "type": "Paper",
            "label": label,
            "title": title,
            "year": year,
            "arxiv_id": arxiv(number),
            "asked_about": False,
            "pagerank": ranks[key(number)],
            "citations": citations,
            "references": 0,
            "cocitation_cluster": leaves if number == 5 else roots,
        }
    assert dict(parsed.nodes(data=True)) == expected
    assert sorted((a, b, data["type"]) for a, b, data in parsed.edges(data=True)) == [
        (key(11), key(n), "CITES") for n in range(1, 6)
    ]


def test_graphml_of_claims_keeps_their_status_and_the_checks_verdict_and_confidence(graph):
    import networkx

    parsed = networkx.parse_graphml(graphml(graph, "unsupported_claims", paper=PAGE))
    (row,) = graph.query("unsupported_claims", paper=PAGE)
    claims = {node: data for node, data in parsed.nodes(data=True) if data["type"] == "Claim"}
    assert {node: (data["text"], data["status"], data["paper"]) for node, data in claims.items()} == {
        row["claim_id"]: ("Temporal matching turns root images into growth curves.", "unsupported", f"arxiv:{PAGE}")
    }
    edges = sorted(
        (parsed.nodes[a]["type"], data["type"], parsed.nodes[b]["type"], data.get("verdict"), data.get("confidence"))
        for a, b, data in parsed.edges(data=True)
    )
    assert edges == [
        ("Claim", "CHECKED_AGAINST", "Source", "not_supported", 0.66),
        ("Claim", "CITES", "Source", None, None),
        ("Paper", "MAKES", "Claim", None, None),
        ("Source", "REFERS_TO", "Paper", None, None),
    ]
    source = next(data for _, data in parsed.nodes(data=True) if data["type"] == "Source")
    assert (source["key"], source["matched"], source["checked"]) == ("Wallis et al., 2022", True, True)


# -- VOSviewer -------------------------------------------------------------------------------


def test_vosviewer_map_of_a_cocitation_neighbourhood(graph):
    network = vosviewer(graph, "cocited_with", paper=arxiv(1))["network"]
    ranks = pageranks(graph)
    labels = {row["cluster"]: row["label"] for row in graph.query("clusters")}
    roots, leaves, _ = cluster_numbers(graph)
    # Work 1 is co-cited with 2–4 (by 11–13) and 5 (by 11): those papers and the citing ones.
    expected = []
    for number, (title, year, label, citations) in WORKS.items():
        expected.append(
            {
                "id": key(number),
                "label": label,
                "description": f"{title}<br>{year}",
                "url": f"https://arxiv.org/abs/{arxiv(number)}",
                "cluster": 2 if number == 5 else 1,  # numbered from 1 within the file, in analyze's order
                "weights": {"Citations": citations, "References": 0},
                "scores": {"PageRank": ranks[key(number)], "Year": year},
            }
        )
    for number, references in ((11, 5), (12, 4), (13, 4)):
        title = BLOCKS[number][0]
        expected.append(
            {
                "id": key(number),
                "label": "Citing… (2018)",
                "description": f"{title}<br>2018",
                "url": f"https://arxiv.org/abs/{arxiv(number)}",
                "weights": {"Citations": 0, "References": references},
                "scores": {"PageRank": ranks[key(number)], "Year": 2018},
            }
        )
    assert sorted(network["items"], key=lambda item: item["id"]) == expected
    assert network["clusters"] == [{"cluster": 1, "label": labels[roots]}, {"cluster": 2, "label": labels[leaves]}]
    links = {frozenset((link["source_id"], link["target_id"])): link["strength"] for link in network["links"]}
    assert len(links) == len(network["links"])  # one link per pair
    cited_by = {11: [1, 2, 3, 4, 5], 12: [1, 2, 3, 4], 13: [1, 2, 3, 4]}
    assert links == {frozenset((key(a), key(b))): 1 for a, works in cited_by.items() for b in works}


def test_vosviewer_link_strength_counts_the_relationships_between_two_nodes_either_way():
    from paperkg.export import vosviewer_network
    from paperkg.show import Subgraph

    graph = Subgraph("invented", nodes={n: {"label": "Paper", "id": n, "title": n} for n in ("a", "b", "c")})
    graph.relationships = [
        {"type": "CITES", "source": "a", "target": "b"},
        {"type": "CITES", "source": "b", "target": "a"},
        {"type": "CITES", "source": "b", "target": "c"},
    ]
    network = vosviewer_network(graph)["network"]
    assert network["links"] == [
        {"source_id": "a", "target_id": "b", "strength": 2},
        {"source_id": "b", "target_id": "c", "strength": 1},
    ]
    assert network["clusters"] == [] and all("cluster" not in item for item in network["items"])


# -- the command -----------------------------------------------------------------------------


def test_export_command_writes_both_files_of_one_query(graph, tmp_path, capsys):
    out_graphml, out_json = tmp_path / "lineage.graphml", tmp_path / "lineage.json"
    arguments = ["--query", "ancestors", "-p", f"paper={arxiv(11)}", "-p", "depth=1"]
    assert main(["export", "--graphml", str(out_graphml), "--vosviewer", str(out_json), *arguments]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"wrote 6 nodes and 5 edges (GraphML) to {out_graphml}",
        f"wrote 6 items and 5 links (VOSviewer JSON) to {out_json}",
    ]
    assert out_graphml.read_text(encoding="utf-8") == graphml(graph, "ancestors", paper=arxiv(11), depth=1)
    assert json.loads(out_json.read_text(encoding="utf-8")) == vosviewer(graph, "ancestors", paper=arxiv(11), depth=1)


@pytest.mark.parametrize(
    "arguments, code, message",
    [
        (["--graphml", "{dir}/x.graphml"], 2, "--graphml and --vosviewer need --query NAME"),
        (
            ["--query", "ancestors"],
            2,
            "--query and -p name the subgraph that --graphml FILE or --vosviewer FILE writes",
        ),
        (["--graphml", "{dir}/missing/x.graphml", "--query", "ancestors"], 2, "its directory does not exist"),
        (["--vosviewer", "{dir}/x.json", "--query", "ancestors", "-p", "paper=9999.99999"], 1, "9999.99999"),
        (["--vosviewer", "{dir}/x.json", "--query", "no_such_query"], 2, "no_such_query"),
        (["--graphml", "{dir}/x.graphml", "--rdf", "{dir}/x.ttl", "--query", "ancestors"], 2, "not PATH"),
    ],
)
def test_export_refuses_in_one_line(graph, tmp_path, capsys, arguments, code, message):
    arguments = [argument.replace("{dir}", str(tmp_path)) for argument in arguments]
    assert main(["export", *arguments]) == code
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err, err
    assert not list(tmp_path.glob("x.*"))


# -- the main path drawn ---------------------------------------------------------------------

# The ladder's global main path is 1→3→4→6→7→9 and its key-route path (2 routes) joins
# 1→4, 4→5, 4→6, 5→7, 6→7, 7→9 (tests/test_analysis.py works both out).
GLOBAL = [1, 3, 4, 6, 7, 9]
KEY_ROUTE = [1, 4, 5, 6, 7, 9]


def ladder(number: int) -> str:
    return key(number + LADDER_FROM)


def test_main_path_picture_draws_the_path_in_order_with_only_its_steps(graph):
    shown = picture(graph, "main_path")
    assert shown.subgraph.order == [ladder(n) for n in GLOBAL]
    # Each step is the later paper citing the one before it; 4 also cites 1, which is no step.
    assert [(rel["type"], rel["source"], rel["target"]) for rel in shown.subgraph.relationships] == [
        ("CITES", ladder(b), ladder(a)) for a, b in pairwise(GLOBAL)
    ]
    nodes = {node.id: node for node in shown.graph.nodes}
    titles = {n + LADDER_FROM: title for n, (title, _, _) in LADDER.items()}
    for position, number in enumerate(GLOBAL, start=1):
        node = nodes[ladder(number)]
        assert node.caption.startswith(f"{position}. {titles[number + LADDER_FROM].split()[0]}")
        # Left to right, centred on the view.
        assert (node.x, node.y, node.pinned) == ((position - 1) * PATH_SPACING - 5 * PATH_SPACING // 2, 0, True)


def test_key_route_picture_draws_its_branches(graph):
    shown = picture(graph, "main_path", kind="key_route")
    assert shown.subgraph.order == [ladder(n) for n in KEY_ROUTE]
    assert [(rel["source"], rel["target"]) for rel in shown.subgraph.relationships] == [
        (ladder(b), ladder(a)) for a, b in [(1, 4), (4, 5), (4, 6), (5, 7), (6, 7), (7, 9)]
    ]
    # Steps skip papers (4→6 passes 5), so the papers zigzag.
    assert [node.y for node in shown.graph.nodes] == [0, PATH_SPACING // 2] * 3


def test_show_and_main_path_commands_write_the_path_pictures(graph, tmp_path, capsys):
    out = tmp_path / "main_path.html"
    assert main(["show", "main_path", "--html", str(out)]) == 0
    data = drawn(out)
    by_x = sorted(data["nodes"], key=lambda node: node["x"])
    assert [node["id"] for node in by_x] == [ladder(n) for n in GLOBAL]
    assert [node["caption"].split(".")[0] for node in by_x] == [str(p) for p in range(1, 7)]
    assert len(data["relationships"]) == 5
    # The lineage of 7 at depth 2: its main path is 3→4→5→7 (tests/test_analysis.py).
    lineage = tmp_path / "lineage.html"
    assert main(["main-path", "--paper", arxiv(107), "--depth", "2", "--html", str(lineage)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == f"wrote {lineage}"
    data = drawn(lineage)
    assert [node["id"] for node in sorted(data["nodes"], key=lambda node: node["x"])] == [
        ladder(n) for n in (3, 4, 5, 7)
    ]
    assert len(data["relationships"]) == 3


def test_main_path_html_draws_in_chromium_at_its_places_without_script_errors(graph, tmp_path):
    out = picture(graph, "main_path", kind="key_route").save(tmp_path / "main_path.html")
    errors, _ = opened_in_chromium(out)
    assert errors == []
