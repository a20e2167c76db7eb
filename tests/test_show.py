"""`paperkg show`: a library query's subgraph as an interactive HTML graph (neo4j-viz), on the examples."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from paperkg.cli import main
from paperkg.show import ANCHOR_COLOUR, STATUS_COLOURS, VERDICT_COLOURS, Picture, caption, picture

from ecosystem import examples

PAGE = "2405.01127"  # a page of examples/corpus with unsupported claims
CITED = "2103.07781"


@pytest.fixture(scope="module")
def seeded(session_kb):
    return examples(session_kb)


def drawn(path) -> dict:
    """The nodes and relationships a neo4j-viz HTML file draws (its inert JSON data block)."""
    text = path.read_text(encoding="utf-8")
    match = re.search(r'<script type="application/json" id="neo4j-viz-data">(.*?)</script>', text, re.S)
    assert match, "no graph data in the HTML file"
    return json.loads(match.group(1))


def test_show_writes_lineage_html_with_a_node_per_ancestor_captioned_by_title_and_year(seeded, tmp_path, capsys):
    out = tmp_path / "lineage.html"
    assert main(["show", "ancestors", "-p", f"paper={PAGE}", "-p", "depth=1", "--html", str(out)]) == 0
    assert f"wrote {out}" in capsys.readouterr().out
    data = drawn(out)
    rows = seeded.query("ancestors", paper=PAGE, depth=1)
    captions = {node["caption"] for node in data["nodes"]}
    for row in rows:
        assert caption({"label": "Paper", "id": row["paper_id"], **row}) in captions
    assert len(data["nodes"]) == len(rows) + 1  # the ancestors and the paper asked about
    anchor = next(node for node in data["nodes"] if node["color"].lower() == ANCHOR_COLOUR.lower())
    # Depth 1: every ancestor is drawn with the citation from the paper.
    cited = {
        rel["to"] if "to" in rel else rel["target"]
        for rel in data["relationships"]
        if (rel.get("from") or rel.get("source")) == anchor["id"]
    }
    assert cited == {row["paper_id"] for row in rows}


def test_cocitation_picture_links_each_cocited_work_to_the_paper_through_a_citing_paper(seeded):
    shown = picture(seeded, "cocited_with", paper=CITED, limit=10)
    rows = seeded.query("cocited_with", paper=CITED, limit=10)
    anchor = seeded.query("find_papers", text=CITED)[0]["paper_id"]
    cites = {(rel["source"], rel["target"]) for rel in shown.subgraph.relationships if rel["type"] == "CITES"}
    citing = {source for source, target in cites if target == anchor}
    for row in rows:
        assert any((paper, row["paper_id"]) in cites for paper in citing), row["title"]


def test_claims_picture_colours_claims_by_status_and_checks_by_verdict(seeded):
    shown = picture(seeded, "unsupported_claims", paper=PAGE)
    rows = seeded.query("unsupported_claims", paper=PAGE)
    claims = [node for node in shown.graph.nodes if node.properties["label"] == "Claim"]
    assert {node.id for node in claims} == {row["claim_id"] for row in rows}
    assert {str(node.color.as_hex(format="long")).lower() for node in claims} == {STATUS_COLOURS["unsupported"].lower()}
    checks = [rel for rel in shown.graph.relationships if rel.properties["type"] == "CHECKED_AGAINST"]
    assert len(checks) == sum(len(row["checks"]) for row in rows)
    assert {(rel.caption, str(rel.color.as_hex(format="long")).lower()) for rel in checks} == {
        ("not_supported", VERDICT_COLOURS["not_supported"].lower())
    }
    # A supported claim's picture draws the SUPPORTS arrows the graph holds for it.
    supported = picture(seeded, "paper_claims", paper=PAGE, status="supported")
    arrows = [rel for rel in supported.subgraph.relationships if rel["type"] == "SUPPORTS"]
    total = seeded.cypher(
        "MATCH (:Paper {arxiv_id: $a})-[:MAKES]->(:Claim)<-[s:SUPPORTS]-() RETURN count(s) AS n", a=PAGE
    )[0]["n"]
    assert len(arrows) == total > 0


def test_picture_displays_inline_in_a_notebook_as_self_contained_html(seeded):
    shown = picture(seeded, "ancestors", paper=PAGE, depth=1)
    assert isinstance(shown, Picture)
    html = shown._repr_html_()
    assert "neo4j-viz-data" in html and "<script" in html
    assert not re.search(r'<script[^>]+src="https?://', html), "the picture must not fetch scripts"


def test_show_refuses_an_unknown_paper_in_one_line(seeded, tmp_path, capsys):
    assert main(["show", "ancestors", "-p", "paper=9999.99999", "--html", str(tmp_path / "x.html")]) == 1
    assert capsys.readouterr().err.count("\n") == 1
    assert not (tmp_path / "x.html").exists()


def opened_in_chromium(out: Path) -> tuple[list[str], list[str]]:
    """The script errors and the requested URLs of a picture opened in headless Chromium, once
    it has drawn its canvas."""
    from playwright.sync_api import sync_playwright
    from test_browser import CHROMIUM, CHROMIUM_FLAGS

    errors: list[str] = []
    requests: list[str] = []
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_FLAGS)
        try:
            page = chromium.new_page()
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.on("request", lambda request: requests.append(request.url))
            page.goto(out.as_uri())
            page.wait_for_selector("canvas", timeout=20_000)
            page.wait_for_timeout(500)
        finally:
            chromium.close()
    return errors, requests


def test_show_html_opens_in_chromium_and_draws_without_script_errors(seeded, tmp_path):
    out = picture(seeded, "unsupported_claims", paper=PAGE).save(tmp_path / "claims.html")
    errors, requests = opened_in_chromium(out)
    assert errors == []
    assert [url for url in requests if not url.startswith(("file:", "data:", "blob:"))] == []


def test_every_node_is_captioned_and_the_legend_stays(seeded):
    lineage = picture(seeded, "ancestors", paper=PAGE, depth=2)
    claims = picture(seeded, "paper_claims", paper="2310.05512")
    for shown in (lineage, claims):
        assert all(node.caption for node in shown.graph.nodes), [node.id for node in shown.graph.nodes]
        assert "paper asked about" in shown.html()  # the legend
    papers = {node["id"]: node for node in lineage.subgraph.nodes.values()}
    for node in lineage.graph.nodes:
        paper = papers[node.id]
        assert node.caption.endswith(f"({paper['year']})") and len(node.caption) <= 20, node.caption
        assert node.caption.split(" (")[0].rstrip("…").split()[0] in (paper["title"] or paper["doi"] or "")
    for node in claims.graph.nodes:
        data = claims.subgraph.nodes[node.id]
        if data["label"] == "Claim":
            assert data["text"].startswith(node.caption.rstrip("…").rstrip())
        elif data["label"] == "Source":
            author, year = data["key"].split(" ")[0].rstrip(","), data["key"].rsplit(", ", 1)[1]
            assert node.caption == f"{author} {year}"
