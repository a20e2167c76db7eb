"""`paperkg analyze` and its queries on hand-worked citation graphs, ingested as cards.

Each graph is written as paper cards (invented titles, arXiv ids 2001.000NN) into a temporary
directory and ingested, then analyzed; the expected values are worked out by hand below.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from paperkg import analysis
from paperkg.analysis import Projection, analyze, main_path, project
from paperkg.cli import main
from paperkg.run.ingest import ingest_paths

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "corpus"


def arxiv(number: int) -> str:
    return f"2001.{number:05d}"


def write_cards(directory: Path, papers: dict[int, tuple[str, int, list[int]]]) -> None:
    """One card per paper: number → (title, year, numbers of the papers it builds on)."""
    directory.mkdir(parents=True, exist_ok=True)
    for number, (title, year, cites) in papers.items():
        lines = [
            f"# {title}",
            "",
            f"arXiv: https://arxiv.org/abs/{arxiv(number)} · HTML: https://mlsanity.com/paper/{arxiv(number)}/",
            "",
            "## Key facts",
            "",
            f"- First posted on arXiv 2 Jan {year}.",
            "",
        ]
        if cites:
            lines += [f"## Builds on (most cited first, {len(cites)} of {len(cites)})", ""]
            lines += [f"- [{papers[c][0]}](https://mlsanity.com/paper/{arxiv(c)}/) ({papers[c][1]})" for c in cites]
            lines.append("")
        lines += ["## Abstract (arXiv)", "", f"An invented abstract of paper {number}."]
        (directory / f"card_{arxiv(number)}.txt").write_text("\n".join(lines), encoding="utf-8")


def analyzed(kb, tmp_path: Path, papers: dict[int, tuple[str, int, list[int]]], **options):
    write_cards(tmp_path / "cards", papers)
    report = ingest_paths(kb, [tmp_path / "cards"])
    assert report.ok, [d.error for d in report.documents if d.error]
    return analyze(kb, **options)


def stored(kb, prop: str) -> dict[str, object]:
    rows = kb.cypher("MATCH (p:Paper) RETURN p.arxiv_id AS id, p[$prop] AS value", prop=prop)
    return {row["id"]: row["value"] for row in rows}


# -- PageRank ---------------------------------------------------------------------------------

# A cites B and C, B cites C, C cites A. With damping d = 17/20 and N = 3:
#   a = 1/20 + 17/20·c,  b = 1/20 + 17/40·a,  c = 1/20 + 17/40·a + 17/20·b
# b and c in terms of a: b = 1/20 + 17/40·a, c = 37/400 + 629/800·a; then
# a = 1/20 + 17/20·(37/400 + 629/800·a)  →  a·5307/16000 = 1029/8000  →  a = 686/1769,
# b = 380/1769, c = 703/1769 (they sum to 1).
CYCLE = {1: ("Paper A", 2020, [2, 3]), 2: ("Paper B", 2019, [3]), 3: ("Paper C", 2018, [1])}
CYCLE_RANKS = {arxiv(1): Fraction(686, 1769), arxiv(2): Fraction(380, 1769), arxiv(3): Fraction(703, 1769)}


def test_pagerank_of_a_hand_worked_cycle(kb, tmp_path):
    analyzed(kb, tmp_path, CYCLE)
    ranks = stored(kb, "pagerank")
    assert ranks.keys() == CYCLE_RANKS.keys()
    for paper, expected in CYCLE_RANKS.items():
        assert ranks[paper] == pytest.approx(float(expected), abs=1e-6), paper
    assert stored(kb, "citations") == {arxiv(1): 1, arxiv(2): 1, arxiv(3): 2}
    assert stored(kb, "references") == {arxiv(1): 2, arxiv(2): 1, arxiv(3): 1}


# A cites B; B cites nothing, so its rank is spread over both papers (d = 0.85, N = 2):
#   a = 0.075 + 0.85·b/2,  b = 1 − a  →  1.425·a = 0.5  →  a = 20/57, b = 37/57.
def test_pagerank_with_a_paper_citing_nothing_matches_hand_and_igraph_reference(kb, tmp_path):
    import igraph

    analyzed(kb, tmp_path, {1: ("Paper A", 2020, [2]), 2: ("Paper B", 2019, [])})
    ranks = stored(kb, "pagerank")
    assert ranks[arxiv(1)] == pytest.approx(20 / 57, abs=1e-6)
    assert ranks[arxiv(2)] == pytest.approx(37 / 57, abs=1e-6)
    # igraph's other implementation (ARPACK's eigenvector solver) as the library's own reference.
    reference = igraph.Graph(n=2, edges=[(0, 1)], directed=True).pagerank(damping=0.85, implementation="arpack")
    assert [ranks[arxiv(1)], ranks[arxiv(2)]] == pytest.approx(reference, abs=1e-6)


def test_top_papers_and_influential_ancestors_rank_by_pagerank(kb, tmp_path):
    analyzed(kb, tmp_path, CYCLE)
    top = kb.query("top_papers")
    assert [row["arxiv_id"] for row in top] == [arxiv(3), arxiv(1), arxiv(2)]  # 703 > 686 > 380
    assert top[0]["pagerank"] == round(703 / 1769, 6) and top[0]["citations"] == 2
    assert [row["arxiv_id"] for row in kb.query("top_papers", since=2019, until=2019)] == [arxiv(2)]
    # A's lineage: B (1 step) and C (1 step), ranked C then B.
    ancestors = kb.query("influential_ancestors", paper=arxiv(1), depth=2)
    assert [(row["arxiv_id"], row["distance"]) for row in ancestors] == [(arxiv(3), 1), (arxiv(2), 1)]
    assert [row["arxiv_id"] for row in kb.query("influential_ancestors", paper=arxiv(1), since=2019)] == [arxiv(2)]


# -- the main path ----------------------------------------------------------------------------

# Flow (cited → citing): 1→3, 1→4, 2→4, 3→4, 3→5, 4→5, 4→6, 5→7, 6→7, 6→8, 7→9.
# Paths from the sources (1, 2):  N⁻ = 1:1 2:1 3:1 4:3 5:4 6:3 7:7 8:3 9:7.
# Paths to the sinks (8, 9):      N⁺ = 9:1 8:1 7:1 5:1 6:2 4:3 3:4 2:3 1:7  (10 paths in all).
# SPC = N⁻(tail)·N⁺(head): 1→3 4, 1→4 3, 2→4 3, 3→4 3, 3→5 1, 4→5 3, 4→6 6, 5→7 4, 6→7 3,
# 6→8 3, 7→9 7.
# Global (largest SPC sum from a source to a sink): best sums 3:4 (from 1), 4:7 (from 3),
# 5:10 (from 4), 6:13 (from 4), 7:16 (from 6), 8:16, 9:23 (from 7): 1→3→4→6→7→9, 23.
# Key-route, top 2 edges 7→9 (7) and 4→6 (6), each extended along the largest SPC (ties: the
# smaller arXiv id): back from 7: 5 (4 > 3), 4 (3 > 1), 1 (1, 2, 3 tie at 3); from 4→6: back to
# 1, forward 6→7 (7 and 8 tie at 3), 7→9. Papers 1, 4, 5, 6, 7, 9 by level (longest flow path
# from a source: 0, 2, 3, 3, 4, 5).
LADDER = {
    1: ("Early Roots", 2000, []),
    2: ("Other Roots", 2000, []),
    3: ("Second Step", 2001, [1]),
    4: ("Third Step", 2002, [1, 2, 3]),
    5: ("Branch Five", 2003, [3, 4]),
    6: ("Branch Six", 2003, [4]),
    7: ("Joining Seven", 2004, [5, 6]),
    8: ("Side Eight", 2004, [6]),
    9: ("Latest Nine", 2005, [7]),
}
SPC = {
    (1, 3): 4,
    (1, 4): 3,
    (2, 4): 3,
    (3, 4): 3,
    (3, 5): 1,
    (4, 5): 3,
    (4, 6): 6,
    (5, 7): 4,
    (6, 7): 3,
    (6, 8): 3,
    (7, 9): 7,
}


def ladder_projection() -> Projection:
    rows = [
        {"paper_id": f"arxiv:{arxiv(n)}", "year": year, "title": title, "cites": [f"arxiv:{arxiv(c)}" for c in cites]}
        for n, (title, year, cites) in sorted(LADDER.items())
    ]
    return Projection.from_rows(rows)


def test_search_path_counts_and_main_paths_worked_by_hand():
    projection = ladder_projection()
    number = {i: int(paper_id[-5:]) for i, paper_id in enumerate(projection.ids)}
    path = main_path(projection, key_routes=2)
    assert {(number[a], number[b]): count for (a, b), count in path.spc.items()} == SPC
    assert [number[p] for p in path.global_path] == [1, 3, 4, 6, 7, 9]
    assert [number[p] for p in path.key_route] == [1, 4, 5, 6, 7, 9]
    assert sorted((number[a], number[b]) for a, b in path.key_route_edges) == [
        (1, 4),
        (4, 5),
        (4, 6),
        (5, 7),
        (6, 7),
        (7, 9),
    ]


def test_main_path_query_and_command_after_analyze(kb, tmp_path, capsys):
    analyzed(kb, tmp_path, LADDER, key_routes=2)
    rows = kb.query("main_path")
    assert [(row["position"], row["arxiv_id"]) for row in rows] == [
        (1, arxiv(1)),
        (2, arxiv(3)),
        (3, arxiv(4)),
        (4, arxiv(6)),
        (5, arxiv(7)),
        (6, arxiv(9)),
    ]
    assert rows[0]["leads_to"] == [f"arxiv:{arxiv(3)}"] and rows[-1]["leads_to"] == []
    route = kb.query("main_path", kind="key_route")
    assert [row["arxiv_id"] for row in route] == [arxiv(n) for n in (1, 4, 5, 6, 7, 9)]
    assert route[1]["leads_to"] == [f"arxiv:{arxiv(5)}", f"arxiv:{arxiv(6)}"]
    # The lineage of 7 (depth 2: 5, 6, then 3, 4): flow 3→4, 3→5, 4→5, 4→6, 5→7, 6→7 with
    # sources 3 and sinks 7: N⁻ 3:1 4:1 5:2 6:1 7:3, N⁺ 7:1 5:1 6:1 4:2 3:3; SPC 3→4 2, 3→5 1,
    # 4→5 1, 4→6 1, 5→7 2, 6→7 1; global 3→4→5→7 (2+1+2 = 5 against 3→4→6→7, 4, and 3→5→7, 3).
    assert main(["main-path", "--paper", arxiv(7), "--depth", "2", "--format", "json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert [(row["paper_id"], row["spc"]) for row in printed] == [
        (f"arxiv:{arxiv(3)}", 2),
        (f"arxiv:{arxiv(4)}", 1),
        (f"arxiv:{arxiv(5)}", 2),
        (f"arxiv:{arxiv(7)}", None),
    ]


# -- clusters ---------------------------------------------------------------------------------

# Two planted blocks: works 1–4 ("Root Imaging …") are cited together by papers 11–13, works 5–8
# ("Leaf Counting …") by papers 14–16; paper 11 also cites work 5, the one link across.
# Co-citation: 1–4 pairwise 3, 5–8 pairwise 3, work 5 with each of 1–4 once: clusters {1–4} and
# {5–8} (the citing papers, cited by none, are in none). Coupling: 11–13 pairwise 4, 14–16
# pairwise 4, 11 with each of 14–16 once: clusters {11–13} and {14–16}.
BLOCKS = {
    1: ("Root Imaging with Lasers", 2015, []),
    2: ("Root Imaging at Night", 2015, []),
    3: ("Root Imaging in Clay", 2016, []),
    4: ("Root Imaging from Drones", 2016, []),
    5: ("Leaf Counting with Phones", 2015, []),
    6: ("Leaf Counting in Wheat", 2015, []),
    7: ("Leaf Counting under Shade", 2016, []),
    8: ("Leaf Counting at Scale", 2016, []),
    11: ("Citing Roots One", 2018, [1, 2, 3, 4, 5]),
    12: ("Citing Roots Two", 2018, [1, 2, 3, 4]),
    13: ("Citing Roots Three", 2018, [1, 2, 3, 4]),
    14: ("Citing Leaves One", 2018, [5, 6, 7, 8]),
    15: ("Citing Leaves Two", 2018, [5, 6, 7, 8]),
    16: ("Citing Leaves Three", 2018, [5, 6, 7, 8]),
}


def members(kb, prop: str) -> list[set[str]]:
    groups: dict[int, set[str]] = {}
    for paper, cluster in stored(kb, prop).items():
        if cluster is not None:
            groups.setdefault(cluster, set()).add(paper)
    return [groups[number] for number in sorted(groups)]


def test_clusters_of_a_planted_two_block_graph(kb, tmp_path):
    report = analyzed(kb, tmp_path, BLOCKS)
    assert report.clusters == {"cocitation": 2, "coupling": 2}
    roots, leaves = {arxiv(n) for n in (1, 2, 3, 4)}, {arxiv(n) for n in (5, 6, 7, 8)}
    assert members(kb, "cocitation_cluster") == [roots, leaves]  # equal sizes: the smaller ids first
    assert members(kb, "coupling_cluster") == [{arxiv(n) for n in (11, 12, 13)}, {arxiv(n) for n in (14, 15, 16)}]
    rows = kb.query("clusters")
    assert [(row["cluster"], row["size"]) for row in rows] == [(0, 4), (1, 4)]
    assert rows[0]["label"].startswith("root, imaging, ") and rows[1]["label"].startswith("leaf, counting, ")
    assert {core["paper_id"] for core in rows[0]["core"]} == {f"arxiv:{p}" for p in roots}
    of = kb.query("cluster_of", paper=arxiv(5))
    assert len(of) == 1 and of[0]["cluster"] == 1
    # Work 5 is co-cited with 6–8 by 14–16 (3 each), and with 1–4 once (by 11), across clusters.
    assert [(m["paper_id"], m["weight"]) for m in of[0]["members"]] == [(f"arxiv:{arxiv(n)}", 3) for n in (6, 7, 8)]
    assert of[0]["neighbours"] == [{"cluster": 0, "label": rows[0]["label"], "weight": 4}]
    coupled = kb.query("cluster_of", paper=arxiv(11), network="coupling")
    assert [(m["paper_id"], m["weight"]) for m in coupled[0]["members"]] == [
        (f"arxiv:{arxiv(12)}", 4),
        (f"arxiv:{arxiv(13)}", 4),
    ]
    assert kb.query("cluster_of", paper=arxiv(11)) == []  # cited by none: in no co-citation cluster


def test_a_network_over_its_bound_keeps_its_heavier_links():
    projection = Projection.from_rows(
        [
            {
                "paper_id": f"arxiv:{arxiv(n)}",
                "year": year,
                "title": title,
                "cites": [f"arxiv:{arxiv(c)}" for c in cites],
            }
            for n, (title, year, cites) in sorted(BLOCKS.items())
        ]
    )
    everything = analysis.network(projection, "cocitation")
    assert everything.min_weight == 1 and len(everything.weights) == 6 + 6 + 4
    heavier = analysis.network(projection, "cocitation", max_links=12)
    assert heavier.min_weight == 2 and sorted(set(heavier.weights.tolist())) == [3]


# -- the run, sync --analyze and the identity dumps -----------------------------------------


def test_analyze_records_its_run_and_a_second_run_replaces_the_first(kb, tmp_path, capsys):
    first = analyzed(kb, tmp_path, BLOCKS)
    assert main(["analyze", "--json"]) == 0
    second = json.loads(capsys.readouterr().out)
    runs = kb.cypher("MATCH (r:AnalysisRun) RETURN r.run_id AS id, r.papers AS papers ORDER BY r.started_at")
    assert [row["id"] for row in runs] == [first.run_id, second["run_id"]] and runs[1]["papers"] == 14
    assert set(stored(kb, "analysis_run").values()) == {second["run_id"]}
    clusters = kb.cypher("MATCH (c:Cluster) RETURN c.analysis_run AS run, count(*) AS n")
    assert clusters == [{"run": second["run_id"], "n": 4}]


def test_sync_analyze_runs_the_analysis_after_the_sync(kb, tmp_path, capsys):
    write_cards(tmp_path / "cards", CYCLE)
    assert main(["sync", str(tmp_path / "cards"), "--analyze"]) == 0
    assert "analyzed 3 papers and 4 citations" in capsys.readouterr().out
    assert stored(kb, "pagerank")[arxiv(3)] == pytest.approx(703 / 1769, abs=1e-6)


def test_the_identity_dump_leaves_the_analysis_out(kb, tmp_path):
    import graph_dump

    write_cards(tmp_path / "cards", BLOCKS)
    ingest_paths(kb, [tmp_path / "cards"])
    before = graph_dump.dump(kb)
    analyze(kb)
    assert graph_dump.dump(kb) == before


def test_lineage_projection_reads_only_the_lineage(kb, tmp_path):
    write_cards(tmp_path / "cards", LADDER)
    ingest_paths(kb, [tmp_path / "cards"])
    lineage = project(kb, paper=f"arxiv:{arxiv(7)}", depth=1)
    assert lineage.ids == [f"arxiv:{arxiv(n)}" for n in (5, 6, 7)]
    assert sorted((lineage.ids[a][-1], lineage.ids[b][-1]) for a, b in lineage.edges) == [("7", "5"), ("7", "6")]


def test_year_ranges_on_the_lineage_and_cocitation_queries(kb, tmp_path):
    write_cards(tmp_path / "ladder", LADDER)
    write_cards(
        tmp_path / "blocks",
        {number + 100: (title, year, [c + 100 for c in cites]) for number, (title, year, cites) in BLOCKS.items()},
    )
    ingest_paths(kb, [tmp_path / "ladder", tmp_path / "blocks"])
    # 9 builds on 7 (2004), 5 and 6 (2003), 4 (2002), 3 (2001), 1 and 2 (2000).
    ancestors = kb.query("ancestors", paper=arxiv(9), depth=5, since=2002, until=2003)
    assert sorted(row["arxiv_id"] for row in ancestors) == [arxiv(4), arxiv(5), arxiv(6)]
    descendants = kb.query("descendants", paper=arxiv(1), depth=5, since=2004)
    assert sorted(row["arxiv_id"] for row in descendants) == [arxiv(7), arxiv(8), arxiv(9)]
    # Work 101 is co-cited with 102–104 (3 each) and 105 (once); of them 102 and 105 are from 2015.
    cocited = kb.query("cocited_with", paper=arxiv(101), until=2015)
    assert [(row["arxiv_id"], row["cocitations"]) for row in cocited] == [(arxiv(102), 3), (arxiv(105), 1)]
