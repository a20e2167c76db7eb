"""Identity is a function of the set of documents: the resolver's rules on hand-made evidence,
and the same corpus through other orders, batch sizes, paths and histories giving one graph."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from paperkg.graph.identity import Evidence, resolve
from paperkg.graph.rows import resolve_source
from paperkg.parse.rawref import parse_raw_reference, parse_raw_references
from paperkg.run.ingest import RunOptions, ingest_paths, sync_directory

from graph_dump import dump
from synth import generate


def works(*evidence: Evidence) -> list[list[str]]:
    """The partition, as sorted groups of encoded evidence; the same for every order."""
    found = []
    for order in range(6):
        shuffled = list(evidence)
        random.Random(order).shuffle(shuffled)
        resolved = resolve(shuffled)
        groups = {}
        for e in shuffled:
            groups.setdefault(resolved[e].paper_id, []).append(e.encode().replace("\x1f", "|"))
        found.append(sorted(sorted(group) for group in groups.values()))
    assert all(partition == found[0] for partition in found)
    return found[0]


def test_a_preprint_and_its_published_version_are_one_work_with_both_identifiers():
    preprint, published = Evidence("2005.00719", None, "probing", 2020), Evidence(None, "10.1/acl", "probing", 2020)
    resolved = resolve([preprint, published])
    assert resolved[preprint] is resolved[published]
    assert (resolved[preprint].paper_id, resolved[preprint].dois) == ("arxiv:2005.00719", ["10.1/acl"])


def test_a_yearless_title_between_two_works_joins_neither():
    assert works(
        Evidence(None, None, "x", 2012), Evidence(None, None, "x", None), Evidence(None, "10.2/y", "x", 2021)
    ) == [["|10.2/y|x|2021|"], ["||x|2012|"], ["||x||"]]


def test_a_yearless_title_joins_the_one_work_that_carries_it():
    assert works(Evidence("1234.56789", None, "x", 2012), Evidence(None, None, "x", None)) == [
        ["1234.56789||x|2012|", "||x||"]
    ]


def test_title_only_evidence_that_fits_two_works_with_different_ids_joins_neither():
    assert works(
        Evidence(None, "10.22035/ter.2011.8", "u", 2011),
        Evidence(None, "10.22035/ter.2011.82374", "u", 2011),
        Evidence(None, None, "u", 2011),
    ) == [["|10.22035/ter.2011.82374|u|2011|"], ["|10.22035/ter.2011.8|u|2011|"], ["||u|2011|"]]


def test_two_arxiv_ids_are_never_one_work_and_a_doi_stated_with_both_belongs_to_neither():
    assert works(
        Evidence("1111.11111", "10.3/z", None, None),
        Evidence("2222.22222", "10.3/z", None, None),
        Evidence(None, "10.3/z", "w", 2020),
    ) == [["1111.11111|10.3/z|||"], ["2222.22222|10.3/z|||"], ["|10.3/z|w|2020|"]]


def test_years_within_one_chain_into_one_work():
    assert works(
        Evidence(None, None, "t", 2012),
        Evidence(None, None, "t", 2013),
        Evidence(None, None, "t", 2014),
        Evidence(None, None, "t", 2016),
    ) == [["||t|2012|", "||t|2013|", "||t|2014|"], ["||t|2016|"]]


# -- source keys and glued raw references ------------------------------------------------------

RAW = [
    "Ada Tong, Bo Li, and Cy Wu. Failures of multimodal systems, 2024a. URL https://x.org/a.",
    "Ada Tong and Dee Ray. Benchmarks of the eye, 2024c. URL https://x.org/c.",
    "Eve Kim. Sparse probes, 2023. URL https://x.org/k.",
]


def source(author: str, year: int, suffix: str | None) -> dict:
    return {"first_author": author, "year": year, "year_suffix": suffix}


def test_a_suffix_names_only_the_entry_that_prints_it():
    raws = [(raw, index) for index, raw in enumerate(parse_raw_references([(n, t) for n, t in enumerate(RAW, 1)]))]
    assert resolve_source(source("Tong", 2024, "c"), [], raws) == 1
    # No entry prints `2024b`: the second entry in list order prints `2024c`, so `b` names none.
    assert resolve_source(source("Tong", 2024, "b"), [], raws) is None
    # A year off, the one entry must print the suffix too (or none of them any).
    assert resolve_source(source("Kim", 2024, "b"), [], raws) is None
    assert resolve_source(source("Kim", 2024, None), [], raws) == 2


def test_a_glued_raw_reference_takes_ids_and_year_from_its_own_part_only():
    fields = parse_raw_reference(
        "Ann Lee and Bo Chen. Counterfactual probes. In Proc. of ACL, 2021. URL https://arxiv.org/abs/cs/0305085. "
        "Carl Dunn. Counterfactual classifiers. Journal of X, 3(2):1-5, May 1996. doi: 10.60749/sa.2021.39701. "
        "URL https://doi.org/10.60749/sa.2021.39701."
    )
    assert (fields.title, fields.arxiv_id, fields.doi, fields.year) == (
        "Counterfactual probes",
        "cs/0305085",
        None,
        2021,
    )
    labelled = parse_raw_reference(
        "Ann Lee. Curricula with spectral robustness. Journal of Y, 2(9):3-4, Sep 2015. doi: 10.78327/fen.2015.7. "
        "URL https://doi.org/10.78327/fen.2015.7. · DOI Lee Ann and Bo Chen. Another work, 2018. "
        "URL https://arxiv.org/abs/1801.09127."
    )
    assert (labelled.arxiv_id, labelled.doi, labelled.year) == (None, "10.78327/fen.2015.7", 2015)


# -- one graph, however it is built ------------------------------------------------------------


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("identity") / "corpus"
    generate(out, papers=80, pages=2, seed=5)
    return out


def shuffled_copy(corpus: Path, into: Path, seed: int) -> Path:
    """The corpus's files under names that sort in another order (discovery sorts paths)."""
    files = sorted(corpus.iterdir())
    random.Random(seed).shuffle(files)
    into.mkdir()
    for number, file in enumerate(files):
        shutil.copyfile(file, into / f"{number:04d}_{file.name}")
    return into


def test_the_same_bytes_at_another_path_are_the_same_documents(kb, corpus, tmp_path):
    # The whole differential check (orders, batch sizes, admin import, histories) is
    # tests/test_differential.py; this pins what a moved corpus reports.
    ingest_paths(kb, [corpus], RunOptions(docs_per_transaction=7))
    reference = dump(kb)
    moved = sync_directory(kb, shuffled_copy(corpus, tmp_path / "moved", 9))
    assert moved.totals["new"] == moved.totals["retracted"] == 0
    assert moved.totals["unchanged"] == moved.totals["seen"] == len(list(corpus.iterdir()))
    assert dump(kb) == reference
    assert (
        kb.cypher(
            "MATCH (d:Document) WHERE NOT d.path STARTS WITH $moved RETURN d.path AS path",
            moved=str(tmp_path / "moved"),
        )
        == []
    )


# -- the evidence, readable ---------------------------------------------------------------------


def test_identity_shows_each_mention_with_its_document_lines_and_rule(kb, seeds_dir):
    ingest_paths(kb, [seeds_dir])
    rows = kb.query("identity", paper="2505.20322")
    assert {(row["rule"], Path(row["document"]).name[:3], tuple(row["lines"])) for row in rows} == {
        ("arXiv id", "004", (1854,)),
        ("title and year within one of arXiv 2505.20322", "004", (1940,)),
    }
    assert rows[0]["dois"] == ["10.18653/v1/2025.acl-long.1139"]
    # Found by its published version's DOI as well.
    assert kb.query("paper_overview", paper="10.18653/v1/2025.acl-long.1139")[0]["arxiv_id"] == "2505.20322"


def test_explain_prints_identifiers_then_mentions_by_rule(kb, seeds_dir, capsys):
    from paperkg.cli import main

    ingest_paths(kb, [seeds_dir])
    assert main(["explain", "1909.03368"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "arxiv:1909.03368: arXiv 1909.03368; DOIs none"
    assert out[1] == "  joined by arXiv id (3 mentions)"
    assert sorted(Path(line.split()[0]).name[:3] for line in out[2:5]) == ["000", "002", "004"]
