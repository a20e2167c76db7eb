"""examples/explore.ipynb is committed with its outputs on the example corpus; re-executed here
(nbclient, a real IPython kernel) against the test instance, it gives the same outputs.

The kernel inherits PAPERKG_HOME from the session fixture, so the notebook's plain `connect()`
finds the suite's server, as it finds a user's after `make run`; the graph holds the example
corpus, as after `make run`. To refresh the committed outputs after changing the notebook, the
corpus or a query: `paperkg reset --yes && paperkg ingest examples/corpus && python tests/test_notebook.py`.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "examples" / "explore.ipynb"
PICTURE = "picture(kb"  # the cell whose output (the picture and its script, 4 MB) is not committed


def execute(notebook):
    """The notebook run top to bottom by a python3 kernel, from the repository's root."""
    from nbclient import NotebookClient

    NotebookClient(notebook, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(ROOT)}}).execute()
    return notebook


def for_committing(notebook):
    """The executed notebook as committed: outputs kept except the picture's, no run timestamps."""
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.metadata.pop("execution", None)
            if PICTURE in cell.source:
                cell.outputs, cell.execution_count = [], None
    return notebook


def shown(cell) -> list[tuple[str, dict]]:
    """What a cell's outputs show: their kinds and data (text and HTML), streams' text. A plot's
    image is compared by kind only: its bytes change with the matplotlib and FreeType release;
    what it plots is checked by the plots' own test."""
    return [
        (
            out.output_type,
            {kind: "<image>" if kind.startswith("image/") else data for kind, data in out.get("data", {}).items()}
            or {"text": out.get("text", "")},
        )
        for out in cell.outputs
    ]


@pytest.fixture(scope="module")
def committed():
    import nbformat

    return nbformat.read(NOTEBOOK, as_version=4)


@pytest.fixture(scope="module")
def executed(session_kb, neo4j_instance, committed):
    import copy

    from ecosystem import examples

    examples(session_kb)
    assert os.environ["PAPERKG_HOME"] == str(neo4j_instance.home)  # what the kernel will see
    return execute(copy.deepcopy(committed))


def html_of(notebook, fragment: str) -> str:
    (cell,) = [c for c in notebook.cells if c.cell_type == "code" and fragment in c.source]
    return "".join(out.get("data", {}).get("text/html", "") for out in cell.outputs)


def test_the_committed_notebook_shows_its_outputs(committed):
    code = [cell for cell in committed.cells if cell.cell_type == "code"]
    assert all(
        cell.outputs and cell.execution_count
        for cell in code
        if PICTURE not in cell.source and "kb.close()" not in cell.source
    )
    assert sum('class="dataframe"' in html_of(committed, cell.source) for cell in code) == 4


def test_re_executed_the_notebook_gives_the_committed_outputs(executed, committed):
    errors = [
        out for cell in executed.cells if cell.cell_type == "code" for out in cell.outputs if out.output_type == "error"
    ]
    assert errors == []
    for again, before in zip(executed.cells, committed.cells):
        if again.cell_type == "code" and PICTURE not in again.source:
            assert shown(again) == shown(before), again.source


@pytest.mark.parametrize(
    "fragment, query, params",
    [
        ('"ancestors"', "ancestors", {"paper": "2205.03349", "depth": 3}),
        ('"cocited_with"', "cocited_with", {"paper": "2103.07781"}),
        ("unsupported = kb.query", "unsupported_claims", {"paper": "2405.01127"}),
    ],
)
def test_the_notebook_shows_each_kind_of_question_as_a_dataframe(committed, session_kb, fragment, query, params):
    import html

    from ecosystem import examples

    rows = examples(session_kb).query(query, **params)
    assert rows, f"{query} has no answer on the example corpus"
    table = html.unescape(html_of(committed, fragment))
    assert 'class="dataframe"' in table
    for row in rows:  # pandas cuts long cells to 50 characters in HTML
        assert (row["paper_id"] if "paper_id" in rows.columns else row["claim"][:40]) in table


def test_the_notebook_draws_the_unsupported_claims_inline(executed, session_kb):
    picture = html_of(executed, PICTURE)
    assert "neo4j-viz-data" in picture
    for row in session_kb.query("unsupported_claims", paper="2405.01127"):
        assert row["claim_id"] in picture


def cell_of(notebook, fragment: str):
    (cell,) = [c for c in notebook.cells if c.cell_type == "code" and fragment in c.source]
    return cell


def printed(cell) -> list[str]:
    return "".join(out.get("text", "") for out in cell.outputs if out.output_type == "stream").splitlines()


def plotted(cell) -> list[bytes]:
    import base64

    return [base64.b64decode(out.data["image/png"]) for out in cell.outputs if "image/png" in out.get("data", {})]


def test_the_notebook_analyzes_the_corpus_then_maps_its_clusters_and_years(executed, session_kb):
    from paperkg.analysis import analyze

    from ecosystem import examples

    # The notebook analyzed the example corpus; so does this test (another test may have loaded
    # the corpus again since), and the analysis is a function of the graph.
    kb = examples(session_kb)
    analyze(kb)
    clusters = kb.query("clusters")
    counts = {"cocitation": len(clusters), "coupling": len(kb.query("clusters", network="coupling"))}
    assert (
        shown(cell_of(executed, "report = analyze(kb)")) == [("execute_result", {"text/plain": repr(counts)})]
        and counts["cocitation"] > 1
    )
    cluster_map = cell_of(executed, "layout_kamada_kawai")
    assert printed(cluster_map) == [
        f"cluster {row['cluster']}: {row['label']}, {row['size']} papers" for row in clusters
    ]
    years = cell_of(executed, "ax.hist(years")
    by_year = {
        row["year"]: row["papers"]
        for row in kb.cypher(
            "MATCH (p:Paper) WHERE p.pagerank IS NOT NULL AND p.year IS NOT NULL "
            "RETURN p.year AS year, count(*) AS papers ORDER BY year"
        )
    }
    assert printed(years) == [f"papers by year: {by_year}"] and sum(by_year.values()) > 10
    for cell in (cluster_map, years):
        (image,) = plotted(cell)
        assert image.startswith(b"\x89PNG\r\n\x1a\n") and len(image) > 10_000
    # The committed notebook shows the same plots.
    assert all(
        plotted(cell_of(committed_notebook(), fragment)) for fragment in ("layout_kamada_kawai", "ax.hist(years")
    )


def committed_notebook():
    import nbformat

    return nbformat.read(NOTEBOOK, as_version=4)


if __name__ == "__main__":
    import nbformat

    nbformat.write(for_committing(execute(nbformat.read(NOTEBOOK, as_version=4))), NOTEBOOK)
    print(f"wrote {NOTEBOOK}")
