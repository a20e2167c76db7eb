"""Neo4j Browser: the style sheet and guide served by the managed server, and a real browser using them.

The browser test drives Debian's Chromium (/usr/bin/chromium, installed by .ci/run) through
Playwright: it opens Neo4j Browser on the test instance, connects with the instance's password,
sees the guide arrive by itself (browser.post_connect_cmd) as the only frame, in the viewport, with
the style sheet applied, draws the Lineage picture with the style and runs a library query from the
guide, checking the rows rendered. Screenshots are kept in test-artifacts/.
"""

from __future__ import annotations

import json
import re
import time
import urllib.request
from pathlib import Path

import pytest

from paperkg import browser_guide
from paperkg.library import library

from ecosystem import examples

ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-dev-shm-usage",
]
QUERY = "ancestors"  # the library query the browser test runs from the guide


def get(url: str) -> tuple[int, dict[str, str], bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


# -- without a browser ---------------------------------------------------------------------


def test_committed_guide_is_generated_from_the_current_library():
    assert browser_guide.guide_text() == browser_guide.render_guide(), (
        "browser/guide/paperkg.html is stale: run `python -m paperkg.browser_guide`"
    )


def test_guide_shows_every_library_query_with_its_param_lines_and_cypher():
    guide = browser_guide.guide_text()
    blocks = [
        _unescape(block) for block in re.findall(r'<pre class="pre-scrollable code runnable">(.*?)</pre>', guide, re.S)
    ]
    for query in library():
        assert browser_guide.query_block(query) in blocks, f"{query.name} is missing from the guide"
        params = browser_guide.param_block(query)
        assert params in blocks and all(f":param {name} => " in params for name in query.browser)
    for kind in ("Lineage", "Co-citation", "Unsupported claims"):
        assert f"<h3>{kind}</h3>" in guide


def test_style_sheet_styles_every_label_and_captions_papers_by_title_and_year():
    style = browser_guide.style_text()
    rules = dict(re.findall(r"^(node\.\w+|relationship\.\w+) \{(.*?)\n\}", style, re.S | re.M))
    for label in ("Paper", "Claim", "Source"):
        assert f"node.{label}" in rules
    assert "caption: '{title} ({year})';" in rules["node.Paper"]
    assert "caption: '{verdict}';" in rules["relationship.CHECKED_AGAINST"]
    assert "relationship.SUPPORTS" in rules and "relationship.REFERS_TO" in rules


def test_managed_server_serves_guide_and_style_without_credentials(neo4j_instance):
    base = f"http://127.0.0.1:{neo4j_instance.ports().http}/paperkg"
    status, headers, body = get(f"{base}/paperkg.html")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert body.decode() == browser_guide.render_guide()
    status, _, body = get(f"{base}/paperkg.grass")
    assert status == 200 and body.decode() == browser_guide.style_text()
    assert get(f"{base}/no-such-file.html")[0] == 404
    # Only those files are open: the rest of the HTTP API still wants credentials.
    request = urllib.request.Request(
        f"http://127.0.0.1:{neo4j_instance.ports().http}/db/neo4j/tx",
        method="POST",
        data=b"{}",
        headers={"Content-Type": "application/json"},
    )
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=10)
    assert refused.value.code == 401


def test_managed_server_tells_browser_to_apply_the_style_and_play_the_guide(session_kb, neo4j_instance):
    with session_kb.driver.session(database="system") as session:
        config = {row["name"]: row["value"] for row in session.run("CALL dbms.clientConfig()")}
    http = neo4j_instance.ports().http
    assert config["browser.post_connect_cmd"] == (
        f"style {browser_guide.style_json()}; clear; play {browser_guide.guide_url(http)}"
    )
    assert json.loads(browser_guide.style_json())["node.Paper"]["caption"] == "{title} ({year})"
    assert "127.0.0.1" in config["browser.remote_content_hostname_whitelist"].split(",")


# -- in a real browser ---------------------------------------------------------------------


def test_neo4j_browser_connects_plays_the_guide_and_renders_a_library_query(neo4j_instance, session_kb):
    from playwright.sync_api import expect, sync_playwright

    kb = examples(session_kb)
    query = library().get(QUERY)
    expected = kb.query(QUERY, **query.browser)
    assert expected, f"{QUERY} with the guide's :param values returns no rows on examples/corpus"
    titles = {row["title"] for row in expected if row["title"]}
    ports = neo4j_instance.ports()
    ARTIFACTS.mkdir(exist_ok=True)
    started = time.monotonic()
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_FLAGS)
        try:
            page = chromium.new_page(viewport={"width": 1400, "height": 1000})
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(f"http://127.0.0.1:{ports.http}/browser/?dbms=bolt://127.0.0.1:{ports.bolt}")
            page.fill("[data-testid=username]", "neo4j", timeout=30_000)
            page.fill("[data-testid=password]", neo4j_instance.password())
            page.click("[data-testid=connect]")

            # browser.post_connect_cmd: the guide opens and the style sheet is applied unasked.
            guide = page.locator("[data-testid=frame]", has=page.locator("[data-testid=carousel]"))
            guide.get_by_text("Papers, their claims and their sources").wait_for(timeout=30_000)
            # The guide's first slide is what a user sees: in the viewport, the only frame (no
            # frame of style-sheet text, no welcome frames above or below it).
            expect(guide.locator("h3", has_text=re.compile("^paperkg$"))).to_be_in_viewport(timeout=10_000)
            page.screenshot(path=str(ARTIFACTS / "neo4j-browser-guide.png"))
            assert page.locator("[data-testid=frameCommand]").all_inner_texts() == [
                f":play {browser_guide.guide_url(ports.http)}"
            ]
            # Browser keeps the style sheet it applies in localStorage (saved shortly after).
            page.wait_for_function(
                "() => (localStorage.getItem('neo4j.grass') || '').includes('node.Paper')", timeout=15_000
            )
            grass = json.loads(page.evaluate("() => localStorage.getItem('neo4j.grass')"))
            assert grass["node.Paper"]["caption"] == "{title} ({year})"

            # The Lineage slide's picture draws with the style: Papers in its colour, captioned by title.
            to_slide(guide, "Lineage")
            params, cypher = guide.locator("pre.runnable:visible").all()
            params.click()
            page.click("[data-testid=editor-Run]")
            page.locator("[data-testid=frameCommand]", has_text=":param paper").first.wait_for(timeout=10_000)
            cypher.click()
            page.click("[data-testid=editor-Run]")
            page.wait_for_selector("svg g.node", timeout=20_000)
            page.wait_for_timeout(1_000)  # the layout settles
            drawn = page.evaluate(
                "() => [...document.querySelectorAll('svg g.node')].map(node => "
                "[node.querySelector('circle.b-outline').getAttribute('fill'), node.textContent])"
            )
            page.screenshot(path=str(ARTIFACTS / "neo4j-browser-graph.png"))
            paper_colour = json.loads(browser_guide.style_json())["node.Paper"]["color"]
            assert drawn and {fill.upper() for fill, _ in drawn} == {paper_colour.upper()}
            assert any(text.strip().startswith("Do Root Architecture") for _, text in drawn), drawn

            # Page through the guide to the query's slide; clicking its block fills the editor.
            to_slide(guide, f"Lineage: {QUERY}")
            params, cypher = guide.locator("pre.runnable:visible").all()
            params.click()
            page.click("[data-testid=editor-Run]")
            # The :param lines run as a script, one row per line: wait until every one is done.
            done = page.locator(
                "[data-testid=frame]", has=page.locator("[data-testid=frameCommand]", has_text=":param paper")
            ).locator('[data-testid=multi-statement-list-icon][title="Status: success"]')
            done.nth(len(query.browser) - 1).wait_for(timeout=10_000)
            cypher.click()
            page.click("[data-testid=editor-Run]")

            # The query's frame shows its rows, as a table (it returns no nodes to draw).
            result = page.locator(
                "[data-testid=frame]", has=page.locator("[data-testid=frameCommand]", has_text="MATCH (p:Paper)")
            ).first
            # Table cells show strings as Browser writes them, in double quotes.
            result.get_by_text(f'"{sorted(titles)[0]}"', exact=True).first.wait_for(timeout=20_000)
            assert errors == [], errors
        finally:
            page.screenshot(path=str(ARTIFACTS / "neo4j-browser.png"))  # also on failure: what went wrong
            chromium.close()
    assert time.monotonic() - started < 90


def to_slide(guide, title: str) -> None:
    """Page the guide forward to the slide headed `title`."""
    heading = guide.locator("h3", has_text=re.compile(f"^{re.escape(title)}$"))
    for _ in range(60):
        if heading.is_visible():
            break
        guide.locator("[data-testid=nextSlide]").click()
    heading.wait_for(timeout=5_000)


def _unescape(text: str) -> str:
    import html

    return html.unescape(text)
