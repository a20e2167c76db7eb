"""`paperkg export --admin-import`: CSV files for neo4j-admin that give the graph ingestion gives."""

from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path

import pytest
from conftest import free_port
from test_ingest import PAGE, SEVEN_WORKS

from paperkg.cli import main
from paperkg.db import connect
from paperkg.ingest.graph.admin_import import ARRAY_DELIMITER, NODES, RELATIONSHIPS, finish_import, import_into
from paperkg.ingest.run import ingest_paths
from paperkg.server import Instance

from graph_dump import dump


def read(path: Path) -> list[dict[str, str | None]]:
    """Rows by header name (with its type suffix); an empty field (no property) is None."""
    with open(path, encoding="utf-8", newline="") as handle:
        header, *rows = csv.reader(handle)
    return [{name: value or None for name, value in zip(header, row)} for row in rows]


@pytest.fixture(scope="module")
def exported(tmp_path_factory, seeds_dir) -> Path:
    out = tmp_path_factory.mktemp("admin-import")
    assert main(["export", "--admin-import", str(out), str(seeds_dir)]) == 0
    return out


def test_the_files_hold_the_model_figures(exported):
    claims = read(exported / "claims.csv")
    page_claims = {
        row[":END_ID(Claim)"] for row in read(exported / "makes.csv") if row[":START_ID(Paper)"] == f"arxiv:{PAGE}"
    }
    assert len(claims) == len(page_claims) == 240
    assert Counter(row["kind:string"] for row in claims) == {"Premise": 111, "Interpretation": 110, None: 19}
    assert Counter(row["substantial:boolean"] for row in claims) == {"true": 71, "false": 150, None: 19}
    flags = Counter(
        flag for row in claims if row["flags:string[]"] for flag in row["flags:string[]"].split(ARRAY_DELIMITER)
    )
    assert flags == {"probably_not_substantial": 85, "two_claims_in_one": 39, "quote_partly_states": 1}
    assert sum(int(row["sources_checked:long"] or 0) for row in claims) == 67
    assert sum(int(row["sources_total:long"] or 0) for row in claims) == 249
    sources = read(exported / "sources.csv")
    assert Counter(row["matched:boolean"] for row in sources) == {"false": 127, "true": 52}
    assert len(read(exported / "claim_cites.csv")) == 239
    checks = read(exported / "checked_against.csv")
    assert Counter(row["verdict:string"] for row in checks) == {"supported": 26, "not_supported": 34}
    assert len(read(exported / "supports.csv")) == 26


def test_ids_are_unique_and_every_relationship_joins_exported_nodes(exported):
    ids = {}
    for label, (key, _) in NODES.items():
        column = f"{key}:ID({label})"
        values = [row[column] for row in read(exported / f"{label.lower()}s.csv")]
        assert len(values) == len(set(values)), label
        ids[label] = set(values)
    for name, (kind, start, end, _) in RELATIONSHIPS.items():
        rows = read(exported / f"{name}.csv")
        pairs = [(row[f":START_ID({start})"], row[f":END_ID({end})"]) for row in rows]
        # One relationship per pair, as MERGE gives; a document mentions a paper once per evidence.
        keyed = [(*pair, row.get("key:string")) for pair, row in zip(pairs, rows)]
        assert len(keyed) == len(set(keyed)), name
        assert {row[":TYPE"] for row in rows} <= {kind}
        assert {a for a, _ in pairs} <= ids[start] and {b for _, b in pairs} <= ids[end], name
    papers = read(exported / "papers.csv")
    mentions = read(exported / "paper_mentions.csv")
    files = {row["doc_id:ID(Document)"]: Path(row["path:string"]).name for row in read(exported / "documents.csv")}
    for arxiv_id, documents in SEVEN_WORKS.items():
        (paper,) = [row for row in papers if row["arxiv_id:string"] == arxiv_id]
        named_by = {
            files[row[":START_ID(Document)"]][:3]
            for row in mentions
            if row[":END_ID(Paper)"] == paper["paper_id:ID(Paper)"]
        }
        assert named_by == documents, arxiv_id


def test_the_imported_graph_is_the_ingested_graph(kb, seeds_dir, exported, tmp_path):
    ingest_paths(kb, [seeds_dir])
    ingested = dump(kb)
    instance = Instance(tmp_path / "imported")
    import_into(instance, exported)
    instance.start(bolt_port=free_port(), http_port=free_port())
    try:
        with connect(home=str(instance.home)) as imported:
            finish_import(imported)
            assert dump(imported) == ingested
            report = ingest_paths(imported, [seeds_dir])
            assert report.totals["unchanged"] == 4 and report.totals["new"] == 0
    finally:
        instance.stop()
