"""The query library on a graph of its own (tests/fixtures/graph.cypher), answers worked out by hand.

The fixture's header lists its papers and citations; the derivations below refer to papers by
its letters (A = Alpha: Root Methods ...). In-graph citation counts used for Salton scores:
A 5 (B C G I K), B 3, C 2, D 4 (E F I K), E 2, F 2, G 3 (I J K), H 1. Reference counts:
I 4, K 3, J 3, G 3, E 2, F 2, D 2, B 1, C 1, H 1.
"""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from paperkg.cypher_files import read_cypher_file
from paperkg.library import QueryError, library
from paperkg.load.schema import apply_schema

FIXTURE = Path(__file__).parent / "fixtures" / "graph.cypher"
QUERY_FILES = sorted((Path(__file__).parents[1] / "queries").glob("*.cypher"))
LIBRARY = library()
EVERY_QUERY = LIBRARY.every_query

# Papers of the fixture by letter: (title, year, arxiv_id, doi, paper_id).
A = ("Alpha: Root Methods", 2015, "1501.00001", None, "arxiv:1501.00001")
B = ("Beta Baselines", 2016, "1602.00002", None, "arxiv:1602.00002")
C = ("Gamma Corpus", 2017, None, "10.1000/gamma.2017", "doi:10.1000/gamma.2017")
D = ("Delta Diagnostics", 2018, "1803.00004", None, "arxiv:1803.00004")
E = ("Epsilon Estimates", 2019, "1904.00005", None, "arxiv:1904.00005")
F = ("Zeta Frameworks", 2020, "2005.00006", "10.5555/zeta.2020", "arxiv:2005.00006")
G = ("Eta Graphs", 2021, "2106.00007", None, "arxiv:2106.00007")
H = ("Theta Heuristics", 2022, None, None, "title:7e1a9c")
I = ("Iota Inspections", 2023, "2301.00009", None, "arxiv:2301.00009")
J = ("Kappa Judgements", 2024, "2402.00010", "10.9999/kappa.2024", "arxiv:2402.00010")
K = ("Lambda Lessons", 2024, None, "10.7777/lambda", "doi:10.7777/lambda")
PAPER = ("title", "year", "arxiv_id", "doi", "paper_id")


@pytest.fixture(scope="module")
def graph(session_kb):
    """The fixture graph, loaded once for this module's read-only tests."""
    session_kb.reset()
    for text in read_cypher_file(FIXTURE).statements:
        session_kb.execute(text)
    apply_schema(session_kb)  # derives title_lower, as `paperkg schema` does for papers made by hand
    return session_kb


def paper_rows(*papers: tuple, **columns: list[Any]) -> list[dict[str, Any]]:
    """Rows naming `papers` by their identity columns, then the given per-row columns."""
    return [
        dict(zip(PAPER, paper)) | {name: values[n] for name, values in columns.items()}
        for n, paper in enumerate(papers)
    ]


def project(rows: list[dict[str, Any]], *columns: str) -> list[tuple]:
    return [tuple(row[c] for c in columns) for row in rows]


# -- every file --------------------------------------------------------------------------


@pytest.mark.parametrize("path", QUERY_FILES, ids=lambda p: p.stem)
def test_header_is_complete(path):
    query = next(q for q in EVERY_QUERY if q.file == path.name)
    assert query.name == path.stem
    assert len(query.description) > 60
    assert query.columns and all(c.meaning for c in query.columns)
    for param in query.params:
        assert param.meaning
        assert param.name in query.browser
        if not param.required and param.type != "paper" and not query.internal:
            assert query.browser[param.name] == param.default, "Browser lines show the defaults"
    assert "ORDER BY" in query.text
    if not query.internal and query.name != "paper_overview":  # one row per paper needs no limit
        assert "LIMIT $limit" in query.text


@pytest.mark.parametrize("query", [q for q in EVERY_QUERY if not q.alias], ids=lambda q: q.name)
def test_plan_has_only_bounded_expansions_and_declared_columns(graph, query):
    _records, summary, keys = graph.driver.execute_query("EXPLAIN " + query.text, dict(query.browser))
    assert keys == [c.name for c in query.columns]
    operators = list(plan_operators(summary.plan))
    assert not [name for name, _ in operators if name.startswith("AllNodesScan")]
    expansions = [(name, details) for name, details in operators if any(kind in name for kind in EXPANDING)]
    assert [(name, details) for name, details in expansions if not bounded(details)] == []


EXPANDING = ("VarLength", "ShortestPath", "Repeat", "Trail")  # operators that follow paths of many hops


def plan_operators(plan: dict) -> Any:
    yield plan["operatorType"], str(plan.get("args", {}).get("Details", ""))
    for child in plan.get("children", []):
        yield from plan_operators(child)


def bounded(details: str) -> bool:
    """Whether every expansion an operator describes has an upper bound. Plans write a
    variable-length relationship as `[:CITES*..5]` (`[:CITES*]` or `[:CITES*2..]` when
    unbounded; a single hop has no `*`) and a quantified path pattern as `{1, 10}`."""
    lengths = re.findall(r"\*([^\]]*)\]", details)
    quantifiers = re.findall(r"\{(\w+), (\w+)\}", details)
    return all(re.fullmatch(r"\d*\.\.\d+", text) for text in lengths) and all(high.isdigit() for _, high in quantifiers)


@pytest.mark.parametrize(
    ("details", "expected"),
    [
        ("(p)-[:CITES*..5]->(a) anon_3", True),
        ("(p)-[anon_0:CITES]->(a)", True),
        ("path = (p)-[anon_0:CITES*..10]->(o)", True),
        ("SHORTEST 1 (p) ((`a`)-[`r`]->(`b`)){1, 10} (o)", True),
        ("(a)-[anon_0:CITES*]->(b)", False),
        ("(a)-[anon_0:CITES*2..]->(b)", False),
    ],
)
def test_bounded_reads_plan_details(details, expected):
    assert bounded(details) is expected


@pytest.mark.parametrize(
    "query", [q for q in LIBRARY if any(p.type == "paper" for p in q.params)], ids=lambda q: q.name
)
def test_paper_is_found_through_a_unique_index(graph, query):
    values = {**query.browser, **{p.name: "2301.00009" for p in query.params if p.type == "paper"}}
    _, summary, _ = graph.driver.execute_query("EXPLAIN " + query.text, values)
    assert "NodeUniqueIndexSeek" in [name.split("@")[0] for name, _ in plan_operators(summary.plan)]


@pytest.mark.parametrize(
    "query", [q for q in LIBRARY if any(p.type == "paper" for p in q.params)], ids=lambda q: q.name
)
def test_browser_form_with_an_arxiv_id_equals_the_library_result(graph, query):
    """In Browser nobody resolves the paper: the query itself must accept an arXiv id."""
    values = {**query.browser, **{p.name: "2301.00009" for p in query.params if p.type == "paper"}}
    if "other" in values:
        values["other"] = "1904.00005"
    expected = graph.query(query.name, **{p.name: values[p.name] for p in query.params})
    rows = graph.cypher(query.text, **values)
    if query.alias:  # Browser shows every column of the query the alias runs
        rows = [{column.name: row[column.name] for column in query.columns} for row in rows]
    assert rows == expected


# -- lineage -----------------------------------------------------------------------------


def test_ancestors_at_depth_1_are_the_references(graph):
    assert graph.query("ancestors", paper="2301.00009", depth=1) == paper_rows(A, D, G, H, distance=[1, 1, 1, 1])


def test_ancestors_have_their_shortest_distance(graph):
    # I cites G D A H; through them B C E F are 2 steps away (A is also 2 steps via G, but 1 directly).
    result = graph.query("ancestors", paper="arxiv:2301.00009", depth=3)
    assert result == paper_rows(A, D, G, H, B, E, C, F, distance=[1, 1, 1, 1, 2, 2, 2, 2])


def test_ancestors_limit_keeps_the_closest(graph):
    assert project(graph.query("ancestors", paper="2301.00009", depth=5, limit=2), "title") == [
        ("Alpha: Root Methods",),
        ("Delta Diagnostics",),
    ]


def test_descendants_by_depth(graph):
    # A is cited by B C G I K; at 2: D (->B,C), E (->B), F (->C), J (->B,G); H only at 3 (H->E->B->A).
    assert graph.query("descendants", paper="1501.00001", depth=2) == paper_rows(
        B, G, C, I, K, D, E, J, F, distance=[1] * 5 + [2] * 4
    )
    assert project(graph.query("descendants", paper="1501.00001", depth=3), "title", "distance")[-1] == (
        "Theta Heuristics",
        3,
    )


def test_descendants_of_an_uncited_paper_are_none(graph):
    assert graph.query("descendants", paper="2301.00009") == []


def test_common_ancestors_closest_to_both_first(graph):
    # Within 2 steps, I reaches A1 D1 G1 H1 B2 C2 E2 F2 and J reaches G1 F1 B1 A2 C2 D2 E2.
    result = graph.query("common_ancestors", paper="2301.00009", other="2402.00010", depth=2)
    assert result == paper_rows(
        G, A, B, D, F, E, C, paper_distance=[1, 1, 2, 1, 2, 2, 2], other_distance=[1, 2, 1, 2, 1, 2, 2]
    )


def test_common_ancestors_at_depth_1(graph):
    assert project(
        graph.query("common_ancestors", paper="2301.00009", other="2402.00010", depth=1),
        "title",
        "paper_distance",
        "other_distance",
    ) == [("Eta Graphs", 1, 1)]


def path_of(*papers: tuple) -> list[dict[str, Any]]:
    return [dict(zip(PAPER, paper)) for paper in papers]


def test_citation_paths_lists_every_shortest_path(graph):
    # I reaches E in two steps through G and through H; the route through G sorts first.
    assert graph.query("citation_paths", paper="2301.00009", other="1904.00005") == [
        {
            "hops": 2,
            "direction": "builds_on",
            "route": "Iota Inspections (2023) → Eta Graphs (2021) → Epsilon Estimates (2019)",
            "papers": path_of(I, G, E),
        },
        {
            "hops": 2,
            "direction": "builds_on",
            "route": "Iota Inspections (2023) → Theta Heuristics (2022) → Epsilon Estimates (2019)",
            "papers": path_of(I, H, E),
        },
    ]


def test_citation_paths_the_other_way_round_are_built_on_by(graph):
    assert project(graph.query("citation_paths", paper="1904.00005", other="2301.00009"), "direction", "route") == [
        ("built_on_by", "Epsilon Estimates (2019) ← Eta Graphs (2021) ← Iota Inspections (2023)"),
        ("built_on_by", "Epsilon Estimates (2019) ← Theta Heuristics (2022) ← Iota Inspections (2023)"),
    ]


@pytest.mark.parametrize(
    ("paper", "other", "max_hops"),
    [
        ("2301.00009", "1904.00005", 1),  # the shortest paths are 2 long
        ("2301.00009", "2301.00009", 6),  # a paper and itself
        ("hep-th/9901001", "1501.00001", 6),  # no citations at all
    ],
)
def test_citation_paths_none(graph, paper, other, max_hops):
    assert graph.query("citation_paths", paper=paper, other=other, max_hops=max_hops) == []


# -- co-citation -------------------------------------------------------------------------


def test_cocited_with_counts_and_salton(graph):
    # A's citers: G (also cites E F), I (G D H), K (G D). G: 2/sqrt(5*3); D: 2/sqrt(5*4);
    # H: 1/sqrt(5*1); E, F: 1/sqrt(5*2), tied and ordered by title.
    assert graph.query("cocited_with", paper="1501.00001") == paper_rows(
        G,
        D,
        H,
        E,
        F,
        cocitations=[2, 2, 1, 1, 1],
        citations=[3, 4, 1, 2, 2],
        salton=[0.5164, 0.4472, 0.4472, 0.3162, 0.3162],
    )


def test_cocited_with_min_count(graph):
    assert project(graph.query("cocited_with", paper="1501.00001", min_count=2), "title") == [
        ("Eta Graphs",),
        ("Delta Diagnostics",),
    ]


def test_cocitation_pairs_strongest_first(graph):
    # Only I and K cite two of A D G each: D-G 2/sqrt(4*3), A-G 2/sqrt(5*3), A-D 2/sqrt(5*4).
    result = graph.query("cocitation_pairs", min_count=2)
    assert project(result, "title_a", "title_b", "cocitations", "salton") == [
        ("Delta Diagnostics", "Eta Graphs", 2, 0.5774),
        ("Alpha: Root Methods", "Eta Graphs", 2, 0.5164),
        ("Alpha: Root Methods", "Delta Diagnostics", 2, 0.4472),
    ]
    assert result[0] == {f"{column}_a": value for column, value in zip(PAPER, D)} | {
        f"{column}_b": value for column, value in zip(PAPER, G)
    } | {"cocitations": 2, "salton": 0.5774}


def test_cocitation_pairs_counts_every_pair_once(graph):
    # 3 pairs co-cited twice, 12 once (BC BD CD AE AF EF AH DH GH BF BG FG).
    result = graph.query("cocitation_pairs", min_count=1)
    assert [row["cocitations"] for row in result] == [2, 2, 2] + [1] * 12
    pairs = {(row["paper_id_a"], row["paper_id_b"]) for row in result}
    assert len(pairs) == 15 and all(a < b for a, b in pairs)


def test_coupled_with_shared_references_and_salton(graph):
    # I cites G D A H. K shares G D A (3/sqrt(4*3)); B C share A (1/sqrt(4*1)); E F share D
    # (1/sqrt(4*2)); G shares A and J shares G (1/sqrt(4*3)).
    assert graph.query("coupled_with", paper="2301.00009") == paper_rows(
        K,
        B,
        C,
        E,
        F,
        G,
        J,
        shared=[3, 1, 1, 1, 1, 1, 1],
        references=[3, 1, 1, 2, 2, 3, 3],
        salton=[0.866, 0.5, 0.5, 0.3536, 0.3536, 0.2887, 0.2887],
    )


@pytest.mark.parametrize("limit", range(1, 8))
def test_coupled_with_a_limit_cuts_the_full_answer_ties_ranked_by_salton(graph, limit):
    # Six papers tie at one shared reference; which of them are kept is the Salton order's.
    assert (
        graph.query("coupled_with", paper="2301.00009", limit=limit)
        == graph.query("coupled_with", paper="2301.00009")[:limit]
    )


def test_coupled_with_min_count(graph):
    assert project(graph.query("coupled_with", paper="2301.00009", min_count=2), "title", "shared") == [
        ("Lambda Lessons", 3)
    ]


def test_claim_cocitation_groups_sources_by_the_work_they_resolve_to(graph):
    # A and G are cited together by claim i10 on page I and claim j1 on page J (through two
    # different sources each); every other pair by one claim. Unresolved sources keep their key.
    result = graph.query("claim_cocitation")
    assert project(result, "work_a", "work_b", "claims", "papers") == [
        ("Alpha: Root Methods", "Eta Graphs", 2, 2),
        ("Alpha: Root Methods", "Delta Diagnostics", 1, 1),
        ("Alpha: Root Methods", "Ghost, 2019", 1, 1),
        ("Alpha: Root Methods", "Nobody et al., 2020", 1, 1),
        ("Alpha: Root Methods", "Orphan, 2017", 1, 1),
        ("Alpha: Root Methods", "Theta Heuristics", 1, 1),
        ("Alpha: Root Methods", "Zeta Frameworks", 1, 1),
        ("Beta Baselines", "Zeta Frameworks", 1, 1),
        ("Eta Graphs", "Ghost, 2019", 1, 1),
        ("Eta Graphs", "Nobody et al., 2020", 1, 1),
        ("Eta Graphs", "Theta Heuristics", 1, 1),
        ("Zeta Frameworks", "Orphan, 2017", 1, 1),
    ]
    assert result[2] == {
        "work_a": "Alpha: Root Methods",
        "year_a": 2015,
        "arxiv_id_a": "1501.00001",
        "doi_a": None,
        "paper_id_a": "arxiv:1501.00001",
        "work_b": "Ghost, 2019",
        "year_b": 2019,
        "arxiv_id_b": None,
        "doi_b": None,
        "paper_id_b": None,
        "claims": 1,
        "papers": 1,
    }


def test_claim_cocitation_of_one_paper(graph):
    assert project(graph.query("claim_cocitation", paper="2301.00009"), "work_a", "work_b") == [
        ("Alpha: Root Methods", "Delta Diagnostics"),
        ("Alpha: Root Methods", "Eta Graphs"),
        ("Alpha: Root Methods", "Nobody et al., 2020"),
        ("Alpha: Root Methods", "Theta Heuristics"),
        ("Eta Graphs", "Nobody et al., 2020"),
        ("Eta Graphs", "Theta Heuristics"),
    ]
    assert project(graph.query("claim_cocitation", min_count=2), "work_a", "work_b") == [
        ("Alpha: Root Methods", "Eta Graphs")
    ]


# -- claims ------------------------------------------------------------------------------

CLAIM = ("title", "claim_id")


def test_unsupported_claims_everywhere(graph):
    result = graph.query("unsupported_claims")
    assert project(result, *CLAIM) == [
        ("Iota Inspections", "claim:i3"),
        ("Iota Inspections", "claim:i2"),
        ("Kappa Judgements", "claim:j4"),
        ("Kappa Judgements", "claim:j1"),
    ]
    assert result[1] == {
        "title": "Iota Inspections",
        "year": 2023,
        "arxiv_id": "2301.00009",
        "doi": None,
        "claim_id": "claim:i2",
        "claim": "Probing accuracy implies task relevance.",
        "kind": "Interpretation",
        "basis": "citation",
        "section": "2 Method",
        "substantial": True,
        "sources_checked": 2,
        "sources_total": 2,
        "checks": [
            {
                "source": "Alpha et al., 2015",
                "work": "Alpha: Root Methods",
                "confidence": 0.75,
                "rationale": "The source measures accuracy only.",
            },
            {
                "source": "Delta & Co, 2018",
                "work": "Delta Diagnostics",
                "confidence": 0.81,
                "rationale": "No relevance analysis.",
            },
        ],
    }
    assert [check["work"] for check in result[2]["checks"]] == ["Alpha: Root Methods", None, "Zeta Frameworks"]


@pytest.mark.parametrize(
    ("params", "claims"),
    [
        ({"paper": "2301.00009"}, ["claim:i3", "claim:i2"]),
        ({"substantial_only": True}, ["claim:i2", "claim:j4", "claim:j1"]),
        ({"kind": "Premise"}, ["claim:i3", "claim:j4", "claim:j1"]),
        ({"kind": "Interpretation", "paper": "2402.00010"}, []),
        ({"limit": 1}, ["claim:i3"]),
    ],
)
def test_unsupported_claims_filters(graph, params, claims):
    assert [row["claim_id"] for row in graph.query("unsupported_claims", **params)] == claims


def test_uncited_claims(graph):
    # i6: none given + support note; i7: reasoning; i9: a support note only (no kind, no section).
    # i11 has basis none given but cites a source, so it is unverifiable instead.
    result = graph.query("uncited_claims")
    assert project(result, "claim_id", "basis", "support_note", "rests_on_assumption", "flags", "flag_reasons") == [
        ("claim:i6", "none given", "relies_without_support", True, [], []),
        ("claim:i7", "reasoning", None, False, ["probably_not_substantial", "two_claims_in_one"], ["no_reason_given"]),
        ("claim:i9", None, "assumption", False, [], []),
    ]
    assert [row["claim_id"] for row in graph.query("uncited_claims", substantial_only=True)] == ["claim:i6"]


def test_unverifiable_claims(graph):
    result = graph.query("unverifiable_claims")
    assert project(result, "claim_id", "sources_total", "sources", "matched") == [
        ("claim:i5", 2, ["Eta, 2021", "Nobody et al., 2020"], 1),
        ("claim:i11", 1, ["Theta et al., 2022"], 1),
        ("claim:j3", 1, ["Beta, 2016"], 0),
    ]
    assert [row["claim_id"] for row in graph.query("unverifiable_claims", kind="Interpretation")] == [
        "claim:i5",
        "claim:j3",
    ]


STATUSES = ["supported", "checked_unlisted", "unsupported", "unverifiable", "uncited", "sources_missing"]


def test_claims_of_every_status_or_of_one(graph):
    # Ordered as paper_claims orders one paper's claims; the counts behind the status agree.
    result = graph.query("claims", paper="2301.00009")
    listed = graph.query("paper_claims", paper="2301.00009")
    assert project(result, "claim_id", "status") == project(listed, "claim_id", "status")
    assert [len(row["sources"]) for row in result] == [row["cited"] for row in listed]
    assert [len(row["checks"]) for row in result] == [row["checked"] for row in listed]
    (i10,) = [row for row in result if row["claim_id"] == "claim:i10"]
    assert (i10["sources"], i10["matched"], i10["sources_checked"], i10["sources_total"]) == (
        ["Alpha et al., 2015", "Eta, 2021", "Theta et al., 2022"],
        3,
        2,
        3,
    )
    assert [(c["source"], c["confidence"], c["rationale"]) for c in i10["checks"]] == [
        ("Eta, 2021", 0.7, "Eta reports no depth."),
        ("Theta et al., 2022", None, None),
    ]
    assert [row["claim_id"] for row in graph.query("claims", status="uncited")] == ["claim:i6", "claim:i7", "claim:i9"]


@pytest.mark.parametrize("alias", ["unsupported_claims", "uncited_claims", "unverifiable_claims"])
def test_the_older_claim_queries_are_claims_with_the_status_set(graph, alias):
    query = LIBRARY.get(alias)
    status = alias.removesuffix("_claims")
    assert query.alias and query.alias.fixed == {"status": status}
    assert [p.name for p in query.params] == ["paper", "kind", "substantial_only", "limit"]
    rows = graph.query("claims", status=status, limit=1000)
    assert graph.query(alias, limit=1000) == [{c.name: row[c.name] for c in query.columns} for row in rows]
    assert rows and {row["status"] for row in rows} == {status}
    with pytest.raises(QueryError, match=f"{alias} has no parameter 'status'"):
        graph.query(alias, status="supported")


def test_claim_support_summary_by_status_and_kind(graph):
    result = graph.query("claim_support_summary")
    assert project(result, "title", "status", "claims", "premise", "interpretation", "no_kind", "substantial") == [
        ("Iota Inspections", "supported", 2, 2, 0, 0, 2),  # i1 i10
        ("Iota Inspections", "checked_unlisted", 1, 1, 0, 0, 0),  # i4
        ("Iota Inspections", "unsupported", 2, 1, 1, 0, 1),  # i2 i3
        ("Iota Inspections", "unverifiable", 2, 1, 1, 0, 1),  # i5 i11
        ("Iota Inspections", "uncited", 3, 0, 2, 1, 1),  # i6 i7 i9
        ("Iota Inspections", "sources_missing", 1, 1, 0, 0, 0),  # i8
        ("Kappa Judgements", "supported", 1, 0, 1, 0, 0),  # j2
        ("Kappa Judgements", "checked_unlisted", 1, 1, 0, 0, 0),  # j5
        ("Kappa Judgements", "unsupported", 2, 2, 0, 0, 2),  # j1 j4
        ("Kappa Judgements", "unverifiable", 1, 0, 1, 0, 1),  # j3
        ("Kappa Judgements", "uncited", 0, 0, 0, 0, 0),
        ("Kappa Judgements", "sources_missing", 0, 0, 0, 0, 0),
    ]
    assert result[0] == {
        "title": "Iota Inspections",
        "year": 2023,
        "arxiv_id": "2301.00009",
        "doi": None,
        "status": "supported",
        "claims": 2,
        "premise": 2,
        "interpretation": 0,
        "no_kind": 0,
        "substantial": 2,
    }


def test_claim_support_summary_of_one_paper_and_limit(graph):
    assert {row["title"] for row in graph.query("claim_support_summary", paper="10.9999/KAPPA.2024")} == {
        "Kappa Judgements"
    }
    assert len(graph.query("claim_support_summary", limit=1)) == 6


def test_paper_claims_with_status_and_counts(graph):
    result = graph.query("paper_claims", paper="2301.00009")
    assert project(result, "claim_id", "section", "status", "cited", "checked", "supporting") == [
        ("claim:i8", "1 Introduction", "sources_missing", 0, 0, 0),
        ("claim:i1", "1 Introduction", "supported", 2, 1, 1),
        ("claim:i3", "2 Method", "unsupported", 1, 1, 0),
        ("claim:i2", "2 Method", "unsupported", 2, 2, 0),
        ("claim:i5", "3 Results", "unverifiable", 2, 0, 0),
        ("claim:i4", "3 Results", "checked_unlisted", 0, 0, 0),
        ("claim:i10", "3 Results", "supported", 3, 2, 1),
        ("claim:i6", "4 Discussion", "uncited", 0, 0, 0),
        ("claim:i7", "4 Discussion", "uncited", 0, 0, 0),
        ("claim:i11", "4 Discussion", "unverifiable", 1, 0, 0),
        ("claim:i9", None, "uncited", 0, 0, 0),
    ]
    assert project(
        graph.query("paper_claims", paper="2402.00010", status="checked_unlisted"),
        "claim_id",
        "sources_checked",
        "checked",
    ) == [("claim:j5", 2, 1)]


def test_claim_queries_read_the_stored_status_and_none_restates_the_rule():
    reading = sorted(query.name for query in LIBRARY if "c.status" in query.text and not query.alias)
    assert reading == ["changes_since", "claim_support_summary", "claims", "paper_claims", "search_claims"]
    # at_risk_claims reads the counts cypher/claim_counts.cypher stores from the claims' status.
    counting = sorted(query.name for query in LIBRARY if "claims_unsupported" in query.text and not query.alias)
    assert counting == ["at_risk_claims"]
    assert [
        query.name
        for query in LIBRARY
        if "'checked_unlisted' THEN" in query.text or "THEN 'checked_unlisted'" in query.text
    ] == []


@pytest.mark.parametrize("paper", ["2301.00009", "2402.00010"])
def test_status_queries_agree_with_the_summary_and_the_claim_list(graph, paper):
    by_status = {status: [] for status in STATUSES}
    for row in graph.query("paper_claims", paper=paper):
        by_status[row["status"]].append(row["claim_id"])
    summary = {row["status"]: row["claims"] for row in graph.query("claim_support_summary", paper=paper)}
    assert summary == {status: len(ids) for status, ids in by_status.items()}
    for status in ("unsupported", "uncited", "unverifiable"):
        listed = [row["claim_id"] for row in graph.query(f"{status}_claims", paper=paper)]
        assert sorted(listed) == sorted(by_status[status])


def test_claims_citing_a_work_with_each_verdict(graph):
    # A is cited as "Alpha et al., 2015" on both pages.
    result = graph.query("claims_citing", paper="1501.00001")
    assert project(result, "title", "claim_id", "cited_as", "verdict", "confidence") == [
        ("Iota Inspections", "claim:i1", "Alpha et al., 2015", "supported", 0.8),
        ("Iota Inspections", "claim:i2", "Alpha et al., 2015", "not_supported", 0.75),
        ("Iota Inspections", "claim:i10", "Alpha et al., 2015", "not_checked", None),
        ("Kappa Judgements", "claim:j4", "Alpha et al., 2015", "not_supported", 0.8),
        ("Kappa Judgements", "claim:j1", "Alpha et al., 2015", "not_supported", 0.88),
        ("Kappa Judgements", "claim:j5", "Alpha et al., 2015", "not_supported", 0.79),
    ]
    assert result[0] == {
        "title": "Iota Inspections",
        "year": 2023,
        "arxiv_id": "2301.00009",
        "doi": None,
        "claim_id": "claim:i1",
        "claim": "Widgets can be probed linearly.",
        "kind": "Premise",
        "section": "1 Introduction",
        "substantial": True,
        "cited_as": "Alpha et al., 2015",
        "verdict": "supported",
        "confidence": 0.8,
        "ambiguous": False,
        "rationale": "Section 3 shows linear probes recover widget states.",
    }


def test_claims_citing_reports_unmatched_and_unchecked_sources(graph):
    assert project(graph.query("claims_citing", paper="2106.00007"), "claim_id", "cited_as", "verdict") == [
        ("claim:i5", "Eta, 2021", "not_checked"),
        ("claim:i10", "Eta, 2021", "not_supported"),
        ("claim:j1", "Eta, 2021", "unmatched"),
    ]
    assert (
        graph.query("claims_citing", paper="2106.00007", kind="Interpretation", substantial_only=True)[0]["claim_id"]
        == "claim:i5"
    )


def test_miscited_works(graph):
    # A fails 4 checks (i2 j1 j4 j5) and passes 1 (i1); D fails 2; G, the unresolved "Orphan,
    # 2017" and F fail 1 each, F also passing one; H never fails.
    result = graph.query("miscited_works")
    assert project(result, "work", "not_supported", "supported", "claims", "papers") == [
        ("Alpha: Root Methods", 4, 1, 4, 2),
        ("Delta Diagnostics", 2, 0, 2, 1),
        ("Eta Graphs", 1, 0, 1, 1),
        ("Orphan, 2017", 1, 0, 1, 1),
        ("Zeta Frameworks", 1, 1, 1, 1),
    ]
    assert result[3] == {
        "work": "Orphan, 2017",
        "year": 2017,
        "arxiv_id": None,
        "doi": None,
        "paper_id": None,
        "not_supported": 1,
        "supported": 0,
        "claims": 1,
        "papers": 1,
    }
    assert project(graph.query("miscited_works", min_count=2), "work") == [
        ("Alpha: Root Methods",),
        ("Delta Diagnostics",),
    ]


# -- papers ------------------------------------------------------------------------------


def test_paper_overview(graph):
    assert graph.query("paper_overview", paper="https://arxiv.org/abs/2301.00009v2") == [
        {
            "title": "Iota Inspections",
            "year": 2023,
            "venue": "arXiv",
            "authors": ["Ida Iota", "Kai Kappa"],
            "arxiv_id": "2301.00009",
            "doi": None,
            "paper_id": "arxiv:2301.00009",
            "first_posted": date(2023, 1, 9),
            "cited_by_count": 7,
            "reference_count": 12,
            "cited_by_in_graph": 0,
            "references_in_graph": 4,
            "claims": 11,
            "abstract": "We inspect widgets with probes.",
        }
    ]


@pytest.mark.parametrize(
    ("text", "titles"),
    [
        ("eta", ["Beta Baselines", "Eta Graphs", "Theta Heuristics", "Zeta Frameworks"]),
        ("10.5555/ZETA.2020", ["Zeta Frameworks"]),
        ("1501.00001", ["Alpha: Root Methods"]),
        ("nothing like it", []),
    ],
)
def test_find_papers(graph, text, titles):
    assert [row["title"] for row in graph.query("find_papers", text=text)] == titles


def test_identity_lists_each_mention_with_its_rule_and_who_showed_it(graph):
    rows = graph.query("identity", paper="10.5555/zeta.2020")
    common = {"paper_id": "arxiv:2005.00006", "arxiv_id": "2005.00006", "dois": ["10.5555/zeta.2020"], "kind": "page"}
    assert rows == [
        {
            **common,
            "rule": "DOI stated with the arXiv id",
            "shown_by": ["pages/j.txt"],
            "document": "pages/i.txt",
            "lines": [7, 9],
            "evidence_arxiv_id": None,
            "evidence_doi": "10.5555/zeta.2020",
            "evidence_title": "zeta frameworks",
            "evidence_year": 2020,
        },
        {
            **common,
            "rule": "arXiv id",
            "shown_by": [],
            "document": "pages/j.txt",
            "lines": [5],
            "evidence_arxiv_id": "2005.00006",
            "evidence_doi": "10.5555/zeta.2020",
            "evidence_title": None,
            "evidence_year": None,
        },
    ]


def test_find_papers_row(graph):
    assert graph.query("find_papers", text="Eta Graphs") == paper_rows(G, cited_by_in_graph=[3], claims=[0])


def test_find_papers_looks_titles_up_in_the_text_index(graph):
    _, summary, _ = graph.driver.execute_query("EXPLAIN " + LIBRARY.get("find_papers").text, text="eta", limit=100)
    operators = [name for name, _ in plan_operators(summary.plan)]
    assert any(name.startswith("NodeIndexContainsScan") for name in operators)
    assert not any(name.startswith("NodeByLabelScan") for name in operators)


def test_every_query_has_an_answer_worked_out_here():
    # The analysis, change and search queries are worked out on graphs of their own
    # (test_analysis.py, test_at_risk.py, test_changes.py, test_search.py).
    files = [
        Path(__file__),
        *(
            Path(__file__).with_name(name)
            for name in ("test_analysis.py", "test_at_risk.py", "test_changes.py", "test_search.py")
        ),
    ]
    tested = {name for file in files for name in re.findall(r'query\("(\w+)"', file.read_text(encoding="utf-8"))}
    assert set(LIBRARY.names) <= tested
