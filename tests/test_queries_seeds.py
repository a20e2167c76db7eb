"""The library on the four real seed documents, ingested by the writer (MODEL.md §1–§2)."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def seeds(session_kb, seeds_dir):
    from paperkg.run.ingest import ingest_paths

    session_kb.reset()
    ingest_paths(session_kb, [seeds_dir])
    return session_kb


def test_coupled_with_2104_08197(seeds):
    shared = {row["arxiv_id"]: row["shared"] for row in seeds.query("coupled_with", paper="2104.08197")}
    assert (shared["2501.16496"], shared["2301.12608"]) == (5, 2)


def test_cocited_with_1909_03368(seeds):
    cocitations = {
        row["arxiv_id"]: row["cocitations"] for row in seeds.query("cocited_with", paper="1909.03368", limit=1000)
    }
    assert (cocitations["2005.00719"], cocitations["1903.08855"]) == (2, 2)


def test_descendants_of_2005_00719_at_depth_1(seeds):
    assert len(seeds.query("descendants", paper="arxiv:2005.00719", depth=1, limit=1000)) == 32


def test_claim_support_summary_of_2501_16496_agrees_with_the_model(seeds):
    rows = seeds.query("claim_support_summary", paper="2501.16496")
    totals = {
        column: sum(row[column] for row in rows)
        for column in ("claims", "premise", "interpretation", "no_kind", "substantial")
    }
    assert totals == {"claims": 240, "premise": 111, "interpretation": 110, "no_kind": 19, "substantial": 71}
    claims = {row["status"]: row["claims"] for row in rows}
    # FORMAT.md B.4: 4 claims count checks but list no source at all; B.2: 85 claims have basis
    # none given / reasoning, 3 of them with sources, and 3 citation claims have neither N of M
    # nor cites; B.6: 19 claims are known only from support notes.
    assert (claims["checked_unlisted"], claims["uncited"], claims["sources_missing"]) == (4, 85 - 3 + 19, 3)


def test_status_queries_agree_with_the_summary_on_the_seed_page(seeds):
    claims = {row["status"]: row["claims"] for row in seeds.query("claim_support_summary", paper="2501.16496")}
    for status in ("unsupported", "uncited", "unverifiable"):
        assert len(seeds.query(f"{status}_claims", paper="2501.16496", limit=1000)) == claims[status]
    assert len(seeds.query("paper_claims", paper="2501.16496")) == 240
