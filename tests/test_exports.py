"""Exports on the seeds: any query to CSV or JSON, and the claim-support layer as CiTO Turtle (rdflib)."""

from __future__ import annotations

import csv
import io
import json

import pytest

from paperkg.cli import main
from paperkg.rdf import CITO, DCTERMS, export_turtle

from ecosystem import seed

PAGE = "2501.16496"


@pytest.fixture(scope="module")
def seeded(session_kb, seeds_dir):
    return seed(session_kb, seeds_dir)


def count(kb, cypher: str) -> int:
    return kb.cypher(cypher)[0]["n"]


# -- queries as CSV and JSON ---------------------------------------------------------------


def test_query_exports_to_json_rows_equal_to_the_python_api(seeded, capsys):
    assert main(["query", "unsupported_claims", "-p", f"paper={PAGE}", "--format", "json"]) == 0
    exported = json.loads(capsys.readouterr().out)
    rows = seeded.query("unsupported_claims", paper=PAGE)
    assert exported == json.loads(rows.to_json())
    assert len(exported) == len(rows) > 0


def test_query_exports_to_csv_with_a_header_and_one_line_per_row(seeded, capsys):
    assert main(["query", "ancestors", "-p", f"paper={PAGE}", "-p", "depth=1", "--format", "csv"]) == 0
    table = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    rows = seeded.query("ancestors", paper=PAGE, depth=1)
    assert [line["paper_id"] for line in table] == [row["paper_id"] for row in rows]
    assert [line["title"] for line in table] == [row["title"] or "" for row in rows]
    assert list(table[0]) == list(rows.columns)


# -- CiTO Turtle -----------------------------------------------------------------------------


def test_rdf_export_parses_back_with_one_cito_triple_per_graph_relationship(seeded, tmp_path):
    import rdflib

    out = tmp_path / "claims.ttl"
    written = export_turtle(seeded, out)
    graph = rdflib.Graph().parse(out, format="turtle")
    assert len(graph) == written

    def triples(prop: str) -> int:
        return len(set(graph.triples((None, rdflib.URIRef(prop), None))))

    assert (
        triples(CITO + "supports") == count(seeded, "MATCH (:Source)-[r:SUPPORTS]->(:Claim) RETURN count(r) AS n") == 26
    )
    assert (
        triples(CITO + "citesAsEvidence")
        == count(seeded, "MATCH (:Claim)-[r:CITES]->(:Source) RETURN count(r) AS n")
        == 239
    )
    assert triples(CITO + "cites") == count(seeded, "MATCH (:Paper)-[r:CITES]->(:Paper) RETURN count(r) AS n")
    assert triples(DCTERMS + "isPartOf") == count(seeded, "MATCH (:Paper)-[r:MAKES]->(:Claim) RETURN count(r) AS n")
    assert triples(DCTERMS + "references") == count(
        seeded, "MATCH (:Source)-[r:REFERS_TO]->(:Paper) RETURN count(r) AS n"
    )


def test_rdf_supports_runs_from_each_supporting_source_to_the_claim_it_supports(seeded, tmp_path):
    import rdflib

    out = tmp_path / "claims.ttl"
    export_turtle(seeded, out)
    graph = rdflib.Graph().parse(out, format="turtle")
    label = rdflib.RDFS.label
    pairs = {
        (str(graph.value(s, label)), str(graph.value(c, label)))
        for s, c in graph.subject_objects(rdflib.URIRef(CITO + "supports"))
    }
    expected = {
        (row["key"], row["text"])
        for row in seeded.cypher("MATCH (s:Source)-[:SUPPORTS]->(c:Claim) RETURN s.key AS key, c.text AS text")
    }
    assert pairs == expected
    # The page's paper is its arXiv abstract page, and its claims are part of it.
    paper = rdflib.URIRef(f"https://arxiv.org/abs/{PAGE}")
    parts = set(graph.subjects(rdflib.URIRef(DCTERMS + "isPartOf"), paper))
    assert len(parts) == 240


def test_export_rdf_command_writes_the_same_turtle_and_refuses_corpus_paths(seeded, tmp_path, capsys):
    import rdflib

    out = tmp_path / "cli.ttl"
    assert main(["export", "--rdf", str(out)]) == 0
    written = int(capsys.readouterr().out.split()[1].replace(",", ""))
    assert len(rdflib.Graph().parse(out, format="turtle")) == written == export_turtle(seeded, tmp_path / "api.ttl")
    assert main(["export", "--rdf", str(out), "corpus/"]) == 2
    assert "no PATH" in capsys.readouterr().err
