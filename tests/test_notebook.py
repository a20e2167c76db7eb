"""examples/explore.ipynb runs end to end (nbclient, a real IPython kernel) against the test instance.

The kernel inherits PAPERKG_HOME from the session fixture, so the notebook's plain `connect()`
finds the suite's server, as it finds a user's after `make run`; the graph holds the example
corpus, as after `make run`.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from paperkg.ingestion import ingest_paths

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "examples" / "explore.ipynb"
CORPUS = ROOT / "examples" / "corpus"


@pytest.fixture(scope="module")
def executed(session_kb, neo4j_instance):
    import nbformat
    from nbclient import NotebookClient

    session_kb.reset()
    report = ingest_paths(session_kb, [CORPUS])
    assert report.ok, report.to_dict()
    assert os.environ["PAPERKG_HOME"] == str(neo4j_instance.home)  # what the kernel will see
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    NotebookClient(notebook, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(ROOT)}}).execute()
    return notebook


def outputs(notebook, fragment: str) -> list[dict]:
    """The outputs of the code cell whose source contains `fragment`."""
    (cell,) = [c for c in notebook.cells if c.cell_type == "code" and fragment in c.source]
    return cell.outputs


def html_of(notebook, fragment: str) -> str:
    return "".join(out.get("data", {}).get("text/html", "") for out in outputs(notebook, fragment))


def test_committed_notebook_has_no_outputs():
    import nbformat

    notebook = nbformat.read(NOTEBOOK, as_version=4)
    assert all(not cell.get("outputs") and cell.get("execution_count") is None
               for cell in notebook.cells if cell.cell_type == "code")


def test_notebook_runs_without_errors(executed):
    errors = [out for cell in executed.cells if cell.cell_type == "code" for out in cell.outputs
              if out.output_type == "error"]
    assert errors == []


@pytest.mark.parametrize("fragment, query, params", [
    ('"ancestors"', "ancestors", {"paper": "2205.03349", "depth": 3}),
    ('"cocited_with"', "cocited_with", {"paper": "2103.07781"}),
    ('unsupported = kb.query', "unsupported_claims", {"paper": "2402.06618"}),
])
def test_notebook_shows_each_kind_of_question_as_a_dataframe(executed, session_kb, fragment, query, params):
    import html

    rows = session_kb.query(query, **params)
    assert rows, f"{query} has no answer on the example corpus"
    table = html.unescape(html_of(executed, fragment))
    assert 'class="dataframe"' in table
    for row in rows:  # pandas cuts long cells to 50 characters in HTML
        assert (row["paper_id"] if "paper_id" in rows.columns else row["claim"][:40]) in table


def test_notebook_draws_the_unsupported_claims_inline(executed, session_kb):
    picture = html_of(executed, "picture(kb")
    assert "neo4j-viz-data" in picture
    for row in session_kb.query("unsupported_claims", paper="2402.06618"):
        assert row["claim_id"] in picture
