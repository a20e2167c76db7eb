"""`at_risk_claims` and `support_profile`: claims resting on weak support, worked out by hand.

On the project's example corpus plus an invented page (tests/fixtures/analysis/), and on the
seeds plus an invented page that cites the seed page's paper (tests/fixtures/analysis_seeds/).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from paperkg.run.ingest import ingest_paths

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "corpus"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def rows_of(result) -> list[tuple]:
    return [
        (
            row["arxiv_id"],
            row["claim"],
            row["cited_as"],
            row["weak_paper_id"],
            row["checked_claims"],
            row["unsupported_claims"],
            [work["paper_id"] for work in row["chain"]],
        )
        for row in result
    ]


@pytest.fixture(scope="module")
def examples(session_kb):
    session_kb.reset()
    ingest_paths(session_kb, [EXAMPLES, FIXTURES / "analysis"])
    return session_kb


# Checked claims by page (a claim is checked when a listed source was checked, or the page counts
# more checks than it lists; unsupported when no checked source supports it):
# - 2402.06618: "Graph-based models …" (Okafor: supported), "Synthetic soil textures …" (Lindqvist:
#   not), "Temporal matching …" (Okafor supports it), "Root phenotyping …" (Morel: supported):
#   4 checked, 1 unsupported (a share of 0.25).
# - 2405.01127: "Root segmentation …", "Self-supervised …", "Foundation models are changing …"
#   supported; "Foundation model features …" checked_unlisted (1 of 1 checked, none listed);
#   "Synthetic soil pre-training …" and "Fine-tuning on ten images …" not: 6 checked, 2 unsupported.
# - 2412.00077 (the invented page): 2 checked, 1 unsupported; nothing cites it.
# With min_share 0.2 both 2402.06618 and 2405.01127 are weak. Only 2405.01127's claims cite
# 2402.06618 (Ferreira et al., 2024, twice); nothing cites 2405.01127 directly. The invented page
# cites Santos & Marsh, 2024 (2409.07788), whose card builds on both weak works.
FERREIRA = [
    (
        "2405.01127",
        "Foundation models are changing how images of roots are analysed.",
        "Ferreira et al., 2024",
        "arxiv:2402.06618",
        4,
        1,
        ["arxiv:2402.06618"],
    ),
    (
        "2405.01127",
        "Root segmentation models fail on soils they were not trained on.",
        "Ferreira et al., 2024",
        "arxiv:2402.06618",
        4,
        1,
        ["arxiv:2402.06618"],
    ),
]
THROUGH_2409 = [
    (
        "2412.00077",
        "Ten-soil benchmarks settle which root models generalise.",
        "Santos & Marsh, 2024",
        "arxiv:2402.06618",
        4,
        1,
        ["arxiv:2409.07788", "arxiv:2402.06618"],
    ),
    (
        "2412.00077",
        "Ten-soil benchmarks settle which root models generalise.",
        "Santos & Marsh, 2024",
        "arxiv:2405.01127",
        6,
        2,
        ["arxiv:2409.07788", "arxiv:2405.01127"],
    ),
]


def test_at_risk_claims_citing_a_weak_work_directly(examples):
    assert rows_of(examples.query("at_risk_claims", depth=0, min_share=0.2)) == FERREIRA


def test_at_risk_claims_through_the_lineage_of_the_cited_work(examples):
    assert rows_of(examples.query("at_risk_claims", depth=1, min_share=0.2)) == FERREIRA + THROUGH_2409
    # Further steps reach no other weak work.
    assert rows_of(examples.query("at_risk_claims", depth=3, min_share=0.2)) == FERREIRA + THROUGH_2409
    assert rows_of(examples.query("at_risk_claims", paper="2412.00077", depth=1, min_share=0.2)) == THROUGH_2409


def test_thresholds_decide_what_is_weak(examples):
    # 1 of 4 and 2 of 6: neither is more than half, nor more than 0.3 for 2402.06618.
    assert examples.query("at_risk_claims", depth=1) == []
    assert rows_of(examples.query("at_risk_claims", depth=1, min_share=0.3)) == THROUGH_2409[1:]
    assert rows_of(examples.query("at_risk_claims", depth=1, min_share=0.2, min_checked=5)) == THROUGH_2409[1:]


def test_support_profile_of_works_cited_by_claims(examples):
    profile = [
        (row["verdict"], row["confidence"], row["claims"], row["citing_papers"], row["total_claims"])
        for row in examples.query("support_profile", paper="2402.06618")
    ]
    # Both claims citing Ferreira et al., 2024 list it as ` source` without a verdict: supported.
    assert profile == [("supported", None, 2, 1, 2)]
    # Wallis et al., 2022 (2205.03349): not supported for 2311.11873 (conf=0.82), for
    # 2402.06618's "Temporal matching …" (conf=0.79) and for the invented page's (conf=0.66).
    profile = [
        (row["verdict"], row["confidence"], row["claims"])
        for row in examples.query("support_profile", paper="2205.03349")
    ]
    assert [p[0] for p in profile] == ["not_supported"] * 3 and [p[1] for p in profile] == [0.82, 0.79, 0.66]
    assert examples.query("support_profile", paper="2409.07788")[0]["verdict"] == "supported"


# -- the seeds ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def seeds(session_kb, seeds_dir):
    session_kb.reset()
    ingest_paths(session_kb, [seeds_dir, FIXTURES / "analysis_seeds"])
    return session_kb


def test_at_risk_claims_of_the_seed_page(seeds):
    # The seeds hold one claim-check page, 004 (2501.16496): no work its claims cite has checked
    # claims of its own, nor builds on one within three steps (the only such work is the page's
    # paper, published after everything it cites). Its list is empty at every depth and share.
    for depth in range(4):
        assert seeds.query("at_risk_claims", paper="2501.16496", depth=depth, min_share=0.0) == []


def test_a_claim_citing_the_seed_page_rests_on_its_checks(seeds):
    # 004's checked claims: 26 supported, 4 checked_unlisted, 25 unsupported (tests/
    # test_queries_seeds.py's statuses): 25 of 55, less than half, more than 0.4.
    claim = (
        "2502.00091",
        "The open problems of mechanistic interpretability are now agreed on.",
        "Sharkey et al., 2025",
        "arxiv:2501.16496",
        55,
        25,
        ["arxiv:2501.16496"],
    )
    assert seeds.query("at_risk_claims", paper="2502.00091") == []
    assert rows_of(seeds.query("at_risk_claims", paper="2502.00091", min_share=0.4)) == [claim]
    # Its other claim cites Ravichander et al., 2021 (2005.00719), which makes no claims and
    # builds on nothing with checked claims.
    assert rows_of(seeds.query("at_risk_claims", paper="2502.00091", depth=3, min_share=0.0)) == [claim]


def test_support_profile_of_a_seed_work(seeds):
    # Page 004 cites Ravichander et al., 2021 in two claims: "Probes can be successfully trained
    # …" checked and not supported (conf=0.84), "Probing has two main challenges …" listed as
    # ` source` without a verdict (supported); the invented page's claim: not supported (0.71).
    profile = [
        (row["verdict"], row["confidence"], row["claims"], row["citing_papers"], row["total_claims"])
        for row in seeds.query("support_profile", paper="2005.00719")
    ]
    assert profile == [("supported", None, 1, 1, 3), ("not_supported", 0.84, 1, 1, 3), ("not_supported", 0.71, 1, 1, 3)]
