"""Ingestion into the real Neo4j: the seed figures, identity, idempotence, order, edits, bad input."""

from __future__ import annotations

import gc
import itertools
import json
import logging
import shutil
from collections import Counter
from pathlib import Path

import pytest

from paperkg.cli import main
from paperkg.graph.rows import Rows
from paperkg.run.ingest import RunOptions, ingest_paths

from graph_dump import dump
from synth import generate

PAGE = "2501.16496"
SEVEN_WORKS = {  # the seeds' shared works (docs/model.md#identity): each is one node that these documents point to
    "2005.00719": {"000", "001", "004"},
    "1909.03368": {"000", "002", "004"},
    "2003.12298": {"000", "004"},
    "2004.03061": {"000", "004"},
    "1905.05950": {"002", "004"},
    "1610.01644": {"000", "004"},
    "2305.01610": {"001", "004"},
}


@pytest.fixture
def seeds(tmp_path, seeds_dir) -> Path:
    """A writable copy of the seeds, so tests can edit documents."""
    copy = tmp_path / "seeds"
    shutil.copytree(seeds_dir, copy)
    for file in copy.iterdir():
        file.chmod(0o644)
    return copy


def one(kb, statement, **parameters):
    (row,) = kb.cypher(statement, **parameters)
    return row


def test_seed_page_produces_the_model_figures(kb, seeds):
    report = ingest_paths(kb, [seeds])
    assert report.totals == {"seen": 4, "new": 4, "changed": 0, "unchanged": 0, "rejected": 0, "retracted": 0}
    q = "MATCH (:Paper {arxiv_id: $page})-[:MAKES]->(c:Claim) "
    assert one(kb, q + "RETURN count(c) AS n", page=PAGE)["n"] == 240
    by = lambda prop: {r["v"]: r["n"] for r in kb.cypher(q + f"RETURN c.{prop} AS v, count(*) AS n", page=PAGE)}  # noqa: E731
    assert by("kind") == {"Premise": 111, "Interpretation": 110, None: 19}
    assert by("substantial") == {True: 71, False: 150, None: 19}
    assert by("support_note") == {"relies_without_support": 21, "assumption": 2, None: 217}
    flags = {r["f"]: r["n"] for r in kb.cypher(q + "UNWIND c.flags AS f RETURN f, count(*) AS n", page=PAGE)}
    assert flags == {"probably_not_substantial": 85, "two_claims_in_one": 39, "quote_partly_states": 1}
    reasons = {r["f"]: r["n"] for r in kb.cypher(q + "UNWIND c.flag_reasons AS f RETURN f, count(*) AS n", page=PAGE)}
    assert reasons == {"conclusions_may_not_depend": 57, "too_vague": 19, "no_reason_given": 30}
    assert one(kb, q + "RETURN sum(c.sources_checked) AS n, sum(c.sources_total) AS m", page=PAGE) == {
        "n": 67,
        "m": 249,
    }
    assert one(kb, "MATCH (:Claim)-[r:CITES]->(:Source) RETURN count(r) AS n")["n"] == 239
    assert one(kb, "MATCH (s:Source) RETURN count(s) AS n")["n"] == 179
    assert {r["m"]: r["n"] for r in kb.cypher("MATCH (s:Source) RETURN s.matched AS m, count(*) AS n")} == {
        False: 127,
        True: 52,
    }
    verdicts = {
        r["v"]: r["n"] for r in kb.cypher("MATCH ()-[r:CHECKED_AGAINST]->() RETURN r.verdict AS v, count(*) AS n")
    }
    assert verdicts == {"supported": 26, "not_supported": 34}
    assert one(kb, "MATCH ()-[r:SUPPORTS]->() RETURN count(r) AS n")["n"] == 26
    assert one(kb, "MATCH (:Claim)-[:CITES]->(s:Source {matched: false}) RETURN count(*) AS n")["n"] == 175
    # 100 citing entries; two of them are one work (a preprint and its published version, same title).
    assert one(kb, "MATCH (p:Paper {arxiv_id: $page})<-[:CITES]-(c) RETURN count(c) AS n", page=PAGE)["n"] == 99


def test_every_supports_edge_mirrors_a_supported_check(kb, seeds):
    ingest_paths(kb, [seeds])
    assert (
        one(
            kb,
            """MATCH (s:Source)-[:SUPPORTS]->(c:Claim)
                      WHERE NOT EXISTS { (c)-[:CHECKED_AGAINST {verdict: 'supported'}]->(s) }
                      RETURN count(*) AS n""",
        )["n"]
        == 0
    )


def test_cards_produce_their_lists(kb, seeds):
    ingest_paths(kb, [seeds])

    def degree(arxiv_id):
        return one(
            kb,
            """MATCH (p:Paper {arxiv_id: $id})
                          RETURN COUNT { (p)-[:CITES]->() } AS out, COUNT { (p)<-[:CITES]-() } AS in""",
            id=arxiv_id,
        )

    assert degree("2104.08197") == {"out": 14, "in": 17}
    assert degree("2005.00719")["in"] >= 30  # card 001 lists 30 of 151; the other documents add more
    assert degree("2301.12608") == {"out": 30, "in": 8}


def test_the_seven_works_are_one_node_each_with_every_documents_edges(kb, seeds):
    ingest_paths(kb, [seeds])
    for arxiv_id, documents in SEVEN_WORKS.items():
        row = one(
            kb,
            """MATCH (p:Paper {arxiv_id: $id})
                         OPTIONAL MATCH (d:Document)-[:MENTIONS]->(p)
                         RETURN count(DISTINCT p) AS nodes, collect(d.path) AS paths,
                                COUNT { MATCH (q:Paper {title_norm: p.title_norm}) } AS same_title""",
            id=arxiv_id,
        )
        assert row["nodes"] == 1 and row["same_title"] == 1, arxiv_id
        assert {Path(path).name[:3] for path in row["paths"]} == documents, arxiv_id
    # The page's reference and the cards' items reach the same node.
    assert (
        one(
            kb,
            """MATCH (page:Paper {arxiv_id: $page})-[:CITES]->(p:Paper {arxiv_id: '1909.03368'})
                      <-[:CITES]-(card:Paper {arxiv_id: '2104.08197'}) RETURN count(*) AS n""",
            page=PAGE,
        )["n"]
        == 1
    )


def test_provenance_names_the_documents_asserting_an_edge(kb, seeds):
    ingest_paths(kb, [seeds])
    row = one(
        kb,
        """MATCH (:Paper {arxiv_id: '2104.08197'})-[r:CITES]->(:Paper {arxiv_id: '1909.03368'})
                     MATCH (d:Document) WHERE d.doc_id IN r.docs RETURN collect(d.path) AS paths""",
    )
    assert [Path(p).name[:3] for p in row["paths"]] == ["000"]


def test_source_keys_resolve_to_reference_entries(kb, seeds):
    ingest_paths(kb, [seeds])
    row = one(
        kb,
        """MATCH (s:Source {matched: true})
                     RETURN count(s) AS matched, sum(CASE WHEN EXISTS { (s)-[:REFERS_TO]->() } THEN 1 ELSE 0 END) AS resolved""",
    )
    # Unresolved: Chalnev et al., 2024 and Pearce et al., 2024, whose first authors head no entry,
    # and Geiger et al., 2024a: Geiger's 2024 entries print other suffixes, none prints `2024a`.
    assert row == {"matched": 52, "resolved": 49}
    near = one(
        kb,
        """MATCH (s:Source {key: 'Kosoy et al., 2023'})-[:REFERS_TO]->(p:Paper)
                      RETURN p.year AS year, p.doi AS doi""",
    )
    assert near == {"year": 2024, "doi": "10.2139/ssrn.4696693"}  # the only Kosoy entry, one year off
    jumper = one(kb, """MATCH (s:Source {key: 'Jumper et al., 2021'})-[:REFERS_TO]->(p:Paper) RETURN p.doi AS doi""")
    assert jumper["doi"] == "10.1038/s41586-021-03819-2"


def test_ingesting_twice_changes_nothing(kb, seeds):
    ingest_paths(kb, [seeds])
    before = dump(kb)
    second = ingest_paths(kb, [seeds])
    assert second.totals == {"seen": 4, "new": 0, "changed": 0, "unchanged": 4, "rejected": 0, "retracted": 0}
    assert dump(kb) == before


def test_ingest_order_does_not_matter(kb, seeds):
    cards, page = sorted(seeds.glob("00[0-2]_*")), next(seeds.glob("004_*"))
    ingest_paths(kb, [*cards])
    ingest_paths(kb, [page])
    cards_first = dump(kb)
    kb.reset()
    ingest_paths(kb, [page])
    for card in reversed(cards):
        ingest_paths(kb, [card])
    assert dump(kb) == cards_first


def test_a_synthetic_corpus_gives_one_graph_in_one_transaction_or_many(kb, tmp_path):
    # In one transaction every paper is new and folded as it is created; in transactions of
    # three documents, later ones add statements to papers in the graph, which take the
    # properties they lacked from the batch's fold, are refolded (the properties the new
    # statements disagree on) or, after a merge, are folded anew.
    corpus = tmp_path / "corpus"
    generate(corpus, papers=120, pages=2, seed=5)
    one_batch = ingest_paths(kb, [corpus], RunOptions(docs_per_transaction=10_000))
    whole = dump(kb)
    kb.reset()
    many = ingest_paths(kb, [corpus], RunOptions(docs_per_transaction=3))
    assert many.rows_written == one_batch.rows_written
    assert dump(kb) == whole


def test_an_ingest_leaves_automatic_garbage_collection_as_it_found_it(kb, seeds):
    # A run pauses it and collects after each transaction instead (ingestion._collected_per_batch).
    assert gc.isenabled()
    ingest_paths(kb, [seeds], RunOptions(docs_per_transaction=2))
    assert gc.isenabled()
    gc.disable()
    try:
        ingest_paths(kb, [seeds], RunOptions(docs_per_transaction=2))
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_written_batchs_rows_go_with_it_not_with_the_garbage_collector(kb, tmp_path):
    # The driver keeps each statement's parameters in its result's summary, a reference cycle;
    # a run collects only every few batches, so rows left there would pile up until then.
    corpus = tmp_path / "corpus"
    generate(corpus, papers=40, pages=1, seed=3)
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)  # what a collection finds unreachable stays in gc.garbage
    try:
        report = ingest_paths(
            kb, [corpus], RunOptions(docs_per_transaction=20)
        )  # fewer batches than YOUNG_COLLECTION_EVERY
        gc.collect()
        held = [rows for rows in gc.garbage if isinstance(rows, Rows) and rows and isinstance(rows[0], dict)]
        statements = {next(iter(rows[0])) for rows in held}
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert report.ok and report.totals["new"] == 41
    assert statements == set()


def test_driver_debug_log_counts_the_rows_of_a_write_instead_of_listing_them(kb, seeds, caplog):
    # The driver formats a statement's parameters for this log whether or not it is on.
    with caplog.at_level(logging.DEBUG, logger="neo4j"):
        ingest_paths(kb, [next(seeds.glob("004_*"))])
    runs = [record.getMessage() for record in caplog.records if "C: RUN" in record.getMessage()]
    claims = next(run for run in runs if "MERGE (c:Claim {claim_id: row.claim_id})" in run)
    assert "'rows': <240 rows>" in claims
    assert max(len(run) for run in runs) < 10_000


def _edit(path: Path, edit) -> None:
    lines = path.read_text(encoding="utf-8").split("\n")
    path.write_text("\n".join(edit(lines)), encoding="utf-8")


def test_edited_documents_replace_exactly_what_they_asserted(kb, seeds):
    ingest_paths(kb, [seeds])
    before = dump(kb, by_file_name=True)
    card = next(seeds.glob("000_*"))
    page = next(seeds.glob("004_*"))

    def edit_card(lines):
        lines[0] = "# A renamed card"
        heading = next(i for i, line in enumerate(lines) if line.startswith("## Builds on"))
        lines[heading] = lines[heading].replace("14 of 14", "13 of 13")
        return [line for line in lines if "/paper/1909.03368/" not in line or not line.startswith("- [")]

    from paperkg.parse import parse_file

    parsed = parse_file(page)
    main_claims = [c for c in parsed.claims if c.origin == "main"]
    # A claim whose entry spans whole lines (its header and the next header each start a line)
    # and whose sources other claims cite too, so dropping it removes no Source.
    lines = page.read_text(encoding="utf-8").split("\n")
    cited = Counter(s.key_norm for c in parsed.claims for s in c.sources)
    dropped, following = next(
        (c, n)
        for c, n in itertools.pairwise(main_claims)
        if lines[c.line - 1].startswith("- ")
        and lines[n.line - 1].startswith("- ")
        and c.sources
        and all(cited[s.key_norm] > 1 for s in c.sources)
        and c.support_note is None
    )
    # A not-supported verdict standing on its own lines: removing it makes the check "supported".
    flipped_claim, flipped = next(
        (c, s)
        for c in main_claims
        for s in c.sources
        if s.verdict == "not_supported"
        and lines[s.line + 1].startswith("Experimental")
        and lines[s.line + 1].endswith("measured")
        and sum(x.matched for x in c.sources) == 1
        and c.sources_checked == 1
    )

    def edit_page(lines):
        verdict = {flipped.line, flipped.line + 1}  # 0-based: the two lines after the source line
        drop = set(range(dropped.line - 1, following.line - 1))
        return [line for i, line in enumerate(lines) if i not in verdict and i not in drop]

    _edit(card, edit_card)
    _edit(page, edit_page)
    report = ingest_paths(kb, [seeds])
    assert report.totals == {"seen": 4, "new": 0, "changed": 2, "unchanged": 2, "rejected": 0, "retracted": 0}
    after = dump(kb, by_file_name=True)
    removed_nodes = {n[0] for n in before["nodes"] - after["nodes"]}
    added_nodes = {n[0] for n in after["nodes"] - before["nodes"]}
    # The renamed paper keeps its key (its arXiv id) and changes in place, as the documents do
    # (named here by file); the dropped claim goes, and so does the evidence of the old title.
    assert {n[0] for n in removed_nodes - added_nodes} == {"Claim", "Evidence"}
    assert [n[:2] for n in added_nodes - removed_nodes] == [("Evidence", n[1]) for n in added_nodes - removed_nodes]
    # The claim whose verdict flipped changes in place too: its stored status is now supported.
    flipped_id = one(
        kb, "MATCH (c:Claim {text: $text}) RETURN c.claim_id AS id, c.status AS status", text=flipped_claim.text
    )
    assert flipped_id["status"] == "supported"
    # So does the page's paper: it has one unsupported claim fewer (its stored claim counts).
    counts = one(
        kb,
        "MATCH (p:Paper {arxiv_id: $arxiv_id}) RETURN p.paper_id AS id, p.claims_unsupported AS unsupported",
        arxiv_id=parsed.arxiv_id,
    )
    assert sorted(n[1][:3] if n[0] == "Document" else n[1] for n in removed_nodes & added_nodes) == sorted(
        ["000", "004", "arxiv:2104.08197", flipped_id["id"], counts["id"]]
    )
    (was,) = [dict(props) for name, props in before["nodes"] if name == ("Paper", counts["id"])]
    assert counts["unsupported"] == int(was["claims_unsupported"]) - 1  # the dump holds repr()s
    renamed = one(kb, "MATCH (p:Paper {arxiv_id: '2104.08197'}) RETURN p.title AS title")
    assert renamed["title"] == "A renamed card"
    assert (
        kb.cypher("""MATCH (:Paper {arxiv_id: '2104.08197'})-[r:CITES]->(:Paper {arxiv_id: '1909.03368'})
                        RETURN r""")
        == []
    )
    assert one(kb, "MATCH (p:Paper {arxiv_id: '1909.03368'}) RETURN count(p) AS n")["n"] == 1
    check = one(
        kb,
        """MATCH (c:Claim {text: $text})-[r:CHECKED_AGAINST]->(s:Source {key: $key})
                       RETURN r.verdict AS verdict, r.rationale AS rationale,
                              EXISTS { (s)-[:SUPPORTS]->(c) } AS supports""",
        text=flipped_claim.text,
        key=flipped.key_norm,
    )
    assert check == {"verdict": "supported", "rationale": None, "supports": True}
    removed_edges = before["relationships"] - after["relationships"]
    added_edges = after["relationships"] - before["relationships"]
    touched = {(e[0][0], e[1], e[2][0]) for e in removed_edges | added_edges}
    assert touched <= {
        ("Paper", "CITES", "Paper"),
        ("Paper", "MAKES", "Claim"),
        ("Claim", "CITES", "Source"),
        ("Claim", "CHECKED_AGAINST", "Source"),
        ("Source", "SUPPORTS", "Claim"),
        ("Document", "MENTIONS", "Paper"),
        ("Document", "MENTIONS", "Claim"),
        ("Evidence", "OF", "Paper"),
    }, touched
    assert len([e for e in removed_edges if e[1] == "MAKES"]) == 1
    assert len([e for e in added_edges if e[1] == "SUPPORTS"]) == 1


def test_a_malformed_document_is_rejected_alone(kb, seeds, capsys):
    bad = seeds / "003_broken.txt"
    bad.write_text("# A card that stops early\n\narXiv: https://arxiv.org/abs/2101.00001 · HTML: x\n", encoding="utf-8")
    code = main(["ingest", str(seeds), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 1
    statuses = {Path(d["path"]).name: d["status"] for d in out["documents"]}
    assert statuses.pop("003_broken.txt") == "rejected"
    assert set(statuses.values()) == {"new"} and len(statuses) == 4
    (rejected,) = [d for d in out["documents"] if d["status"] == "rejected"]
    assert rejected["error"].startswith(f"{bad}:") and rejected["line"] is not None
    assert kb.cypher("MATCH (d:Document) WHERE d.path ENDS WITH '003_broken.txt' RETURN d") == []
    assert one(kb, "MATCH (p:Paper {arxiv_id: '2101.00001'}) RETURN count(p) AS n")["n"] == 0
    assert one(kb, "MATCH (c:Claim) RETURN count(c) AS n")["n"] == 240


def test_a_document_whose_write_the_server_refuses_is_rejected_and_the_rest_of_its_batch_lands(kb, seeds):
    # A constraint the page's sources break (several share a first author) makes the server
    # refuse write_sources, a statement sent while the ones before it are still running.
    kb.execute("CREATE CONSTRAINT test_source_first_author FOR (s:Source) REQUIRE s.first_author IS UNIQUE")
    try:
        report = ingest_paths(kb, [seeds])
    finally:
        kb.execute("DROP CONSTRAINT test_source_first_author")
    statuses = {Path(d.path).name: d.status for d in report.documents}
    assert statuses == {
        "000_1735f3a73b3029ee.txt": "new",
        "001_a25ba7e8ad389e6c.txt": "new",
        "002_b16a106f53d4a016.txt": "new",
        "004_75ef50a8eea015b8.txt": "rejected",
    }
    (rejected,) = [d for d in report.documents if d.status == "rejected"]
    assert rejected.error.startswith(f"{seeds / '004_75ef50a8eea015b8.txt'}: not written: ")
    assert "first_author" in rejected.error
    documents = {Path(r["path"]).name for r in kb.cypher("MATCH (d:Document) RETURN d.path AS path")}
    assert documents == {"000_1735f3a73b3029ee.txt", "001_a25ba7e8ad389e6c.txt", "002_b16a106f53d4a016.txt"}
    assert one(kb, "MATCH (n) WHERE n:Claim OR n:Source RETURN count(n) AS n")["n"] == 0
    assert one(kb, "MATCH (p:Paper {arxiv_id: '2005.00719'}) RETURN count(p) AS n")["n"] == 1


def test_stats_json_counts_labels_and_types(kb, seeds, capsys):
    ingest_paths(kb, [seeds])
    assert main(["stats", "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["nodes"]["Claim"] == 240 and stats["nodes"]["Source"] == 179
    assert stats["relationships"]["CHECKED_AGAINST"] == 60 and stats["relationships"]["SUPPORTS"] == 26


def test_reset_needs_yes_and_empties_the_graph(kb, seeds, capsys):
    ingest_paths(kb, [seeds])
    assert main(["reset"]) == 2
    assert main(["reset", "--yes"]) == 0
    assert one(kb, "MATCH (n) RETURN count(n) AS n")["n"] == 0


def test_each_run_is_recorded(kb, seeds):
    first = ingest_paths(kb, [seeds])
    ingest_paths(kb, [seeds])
    runs = kb.cypher("""MATCH (r:IngestRun) RETURN r.run_id AS id, r.seen AS seen, r.new AS new,
                        r.unchanged AS unchanged, r.rejected AS rejected ORDER BY r.started_at, r.new DESC""")
    assert len(runs) == 2
    assert {(r["seen"], r["new"], r["unchanged"], r["rejected"]) for r in runs} == {(4, 4, 0, 0), (4, 0, 4, 0)}
    assert first.run_id in {r["id"] for r in runs}


def test_title_lower_follows_the_folded_title(kb, seeds):
    ingest_paths(kb, [seeds])
    titles = (
        "MATCH (p:Paper) WHERE p.title IS NOT NULL RETURN count(p) AS titled, "
        "count(CASE WHEN p.title_lower = toLower(p.title) THEN 1 END) AS lowered"
    )
    first = one(kb, titles)
    assert first["titled"] > 100 and first["lowered"] == first["titled"]
    card = next(seeds.glob("000_*"))
    _edit(card, lambda lines: ["# A Renamed CARD", *lines[1:]])
    ingest_paths(kb, [seeds])
    assert one(kb, titles)["lowered"] == first["titled"]
    assert [row["title"] for row in kb.query("find_papers", text="renamed card")] == ["A Renamed CARD"]
    assert one(kb, "MATCH (p:Paper) WHERE p.title IS NULL AND p.title_lower IS NOT NULL RETURN count(p) AS n")["n"] == 0
