"""py2neo (end-of-life upstream, extra [py2neo]) against Neo4j 5.26: the .cypher library through it.

Outcome, pinned here: py2neo 2021.2.4 installs beside the neo4j 6 driver (it does not depend on
it), speaks Bolt to Neo4j 5.26 with user and password, and runs the library's .cypher files
unchanged, with the same rows as `kb.query`. Its HTTP scheme does not work: it talks to the
REST endpoints Neo4j removed in 4.0.
"""

from __future__ import annotations

import pytest

from paperkg.library import library
from paperkg.package_data import data_folder

from ecosystem import examples

# One query of each kind, run from its file with the values of its own `:param` lines.
QUERIES = ["ancestors", "cocited_with", "claims", "claim_support_summary"]


@pytest.fixture(scope="module")
def seeded(session_kb):
    return examples(session_kb)


@pytest.fixture(scope="module")
def py2neo_graph(neo4j_instance):
    from py2neo import Graph

    return Graph(neo4j_instance.bolt_uri, auth=neo4j_instance.auth())


def test_py2neo_talks_bolt_to_neo4j_5_26_with_password_auth(py2neo_graph):
    assert py2neo_graph.run("RETURN 1 AS one").data() == [{"one": 1}]
    assert str(py2neo_graph.service.kernel_version).startswith("5.26")


@pytest.mark.parametrize("name", QUERIES)
def test_py2neo_runs_the_library_cypher_file_with_the_same_rows_as_kb_query(seeded, py2neo_graph, name):
    query = library().get(name)
    text = (data_folder("queries") / query.file).read_text(encoding="utf-8")
    rows = py2neo_graph.run(text, **query.browser).data()
    assert rows == list(seeded.query(name, **query.browser))
    assert rows, f"{name} returns no rows on examples/corpus with its :param values"


def test_py2neo_http_scheme_does_not_work_against_neo4j_5(neo4j_instance):
    from py2neo import Graph
    from py2neo.errors import ClientError

    with pytest.raises(ClientError, match="Not Found"):  # already when it opens the connection
        Graph(f"http://127.0.0.1:{neo4j_instance.ports().http}", auth=neo4j_instance.auth()).run("RETURN 1")
