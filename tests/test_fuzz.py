"""Fuzzing the parser: whatever the bytes, it parses or raises a well-formed ParseError; and
whole ingestion runs: mutants among good documents never cost a good document."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from paperkg.cli import main
from paperkg.parse import ParseError, parse_bytes

from mutate import MUTATIONS, FuzzFailure, check_outcome, line_count, make_case, mixed_batch, mutate
from synth import generate

CASES = 1200
FUZZ_SEED = 0


@pytest.fixture(scope="module")
def corpus(seeds_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, bytes]]:
    """The four seeds and a small synthetic corpus (cards and pages), as (name, bytes)."""
    synth = tmp_path_factory.mktemp("fuzz-synth")
    generate(synth, papers=40, pages=2, seed=FUZZ_SEED)
    paths = sorted(seeds_dir.iterdir()) + sorted(synth.iterdir())
    return [(path.name, path.read_bytes()) for path in paths]


def test_corpus_holds_the_seeds_and_synthetic_cards_and_pages(corpus):
    names = [name for name, _ in corpus]
    assert len(names) == 4 + 40 + 2
    assert sum(name.startswith("page_") for name in names) == 2


def test_every_mutated_document_parses_or_is_rejected_with_a_line_inside_it(corpus):
    failures = []
    outcomes = {"parsed": 0, "rejected": 0}
    used: set[str] = set()
    for number in range(CASES):
        case = make_case(FUZZ_SEED, number, corpus)
        used.update(case.mutations)
        try:
            error = check_outcome(case.data, f"case-{number}")
        except FuzzFailure as failure:
            failures.append(f"case {number} ({case.source}; {', '.join(case.mutations)}): {failure}")
            continue
        outcomes["parsed" if error is None else "rejected"] += 1
    assert failures == [], "reproduce with: python bench/mutate.py --seed 0 --replay N"
    assert used == set(MUTATIONS)
    # Both outcomes occur: mutation is neither always fatal nor always harmless.
    assert outcomes["parsed"] > CASES // 10 and outcomes["rejected"] > CASES // 10


def test_mutation_is_deterministic_for_a_seeded_rng(corpus):
    _, data = corpus[3]
    assert mutate(data, random.Random(5)) == mutate(data, random.Random(5))
    assert make_case(1, 7, corpus) == make_case(1, 7, corpus)


@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_each_mutation_changes_a_seed_page(name, corpus):
    page = next(data for source, data in corpus if source.startswith("004_"))
    assert MUTATIONS[name](page, random.Random(1)) != page


def test_line_count_counts_crlf_lf_and_lone_cr_as_one_break_each():
    assert line_count(b"a") == 1
    assert line_count(b"a\r\nb\nc\rd") == 4
    assert line_count(b"a\n") == 2


def test_the_contract_accepts_a_parse_and_a_rejection_with_a_line_inside_the_document(corpus):
    _, card = corpus[0]
    assert check_outcome(card) is None
    rejection = check_outcome(b"# Title\n\nnot the arXiv line")
    assert isinstance(rejection, ParseError) and rejection.line == 3


@pytest.mark.parametrize(
    "data",
    [b"", b"\xef\xbb\xbf", b"\n\n", b"\x00", b"#", b"# ", b"- cites", "“”".encode(), b"\xff\xfe# T"],
    ids=["empty", "bom-only", "blank-lines", "nul", "hash", "hash-space", "dash", "quotes", "utf16-bom"],
)
def test_degenerate_documents_are_rejected_within_their_lines(data):
    error = check_outcome(data)
    assert isinstance(error, ParseError)


def test_a_card_cut_after_its_title_is_rejected_within_its_one_line():
    with pytest.raises(ParseError) as rejected:
        parse_bytes(b"# A title and nothing else", "cut.txt")
    assert rejected.value.line in (None, 1)


# -- whole runs: mutants among good documents (issue 21) ---------------------------------------

RUN_MUTANTS = 80


def test_mutants_among_good_documents_in_one_run_never_cost_a_good_document(kb, corpus, tmp_path, capsys):
    good_corpus = tmp_path / "good"
    generate(good_corpus, papers=12, pages=1, seed=FUZZ_SEED + 1)
    cases = [make_case(FUZZ_SEED + 1, number, corpus) for number in range(RUN_MUTANTS)]
    docs = (tmp_path / "mixed").resolve()
    good = mixed_batch(docs, FUZZ_SEED, cases, sorted(good_corpus.iterdir()))
    code = main(["ingest", str(docs), "--json", "--batch", "10"])
    report = json.loads(capsys.readouterr().out)
    statuses = {d["path"]: d["status"] for d in report["documents"]}
    assert code == (1 if report["totals"]["rejected"] else 0)
    assert {str(path): statuses[str(path)] for path in good} == {str(path): "new" for path in good}
    (row,) = kb.cypher("MATCH (d:Document) RETURN collect(d.path) AS paths")
    assert {str(path) for path in good} <= set(row["paths"])
    for document in report["documents"]:
        if document["status"] == "rejected":
            assert document["error"].startswith(document["path"]) and len(document["error"].splitlines()) == 1
    # Both outcomes occur among the mutants: the run saw documents it took and ones it refused.
    assert report["totals"]["rejected"] > 0 and report["totals"]["new"] > len(good)
