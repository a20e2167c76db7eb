"""Change sets, the run history and the digest (issue 18), over a sequence of corpus versions:
add pages, change a verdict in a page, delete a card, add a card that merges two works,
retract it. Each run's change set is pinned, and checked against the whole graph's states
read before and after the run (change_oracle); so are the net changes and the digests."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from change_oracle import differences, graph_state

from paperkg.cli import main
from paperkg.db import ConnectionFailed
from paperkg.history import changes, digest, runs, work_label
from paperkg.load import incremental
from paperkg.load.incremental import TransactionLoader
from paperkg.run import ingest as ingestion
from paperkg.run.ingest import RunOptions, sync_directory

from graph_dump import dump

FIXTURES = Path(__file__).parent / "fixtures" / "changes"
PAGE = "page_2502.30003.txt"
CHECKED = "1 of 1 sources checked- cites Okafor & Lind, 2024 source\n"
NOT_SUPPORTED = (
    "The source separates lichens from rock in visible light only; it reports nothing in "
    "short-wave infrared. (LLM, conf=0.81)\nExperimental — accuracy not yet measured\n"
)

A, B, W, P = "arxiv:2501.10001", "arxiv:2401.20002", "arxiv:2303.40004", "arxiv:2502.30003"
T = "title:fb2f807d1a6db29f"  # the work the page's reference names by title and year only
INFRARED = "claim:c6f1ffe96684c636a862"  # cites Okafor & Lind, 2024 (the source that is B)
GROWTH = "claim:b44f4c9e8849839e5c66"  # cites Brandvold, 2023 (the source that is T)
OKAFOR, BRANDVOLD = "Okafor & Lind, 2024", "Brandvold, 2023"


def pinned(rows) -> set[tuple]:
    return {(r["entity"], r["what"], r["key"], r["before"], r["after"]) for r in rows}


class Sequence:
    """The corpus folder, synced after each version; remembers each run and checks its change
    set against the whole graph's difference."""

    def __init__(self, kb, folder: Path):
        self.kb, self.folder, self.run_ids = kb, folder, []

    def sync(self) -> list[dict]:
        before = graph_state(self.kb)
        report = sync_directory(self.kb, self.folder)
        assert report.ok
        truth = differences(before, graph_state(self.kb))
        rows = changes(self.kb, run=report.run_id)
        assert {(r["entity"], r["key"], r["before"], r["after"]) for r in rows if r["entity"] != "merge"} == truth
        assert report.to_dict()["changes_recorded"] >= len(rows)
        self.run_ids.append(report.run_id)
        return rows


@pytest.fixture
def sequence(kb, tmp_path) -> Sequence:
    folder = tmp_path / "corpus"
    folder.mkdir()
    return Sequence(kb, folder)


def claim_key(claim_id: str, source: str) -> str:
    return f"{claim_id} | {source}"


def test_each_run_of_the_sequence_records_what_it_changed(kb, sequence):
    folder = sequence.folder
    for name in ("card_2501.10001.txt", "card_2401.20002.txt", PAGE):
        shutil.copy(FIXTURES / name, folder)
    first = sequence.sync()
    proxy = next(r["key"] for r in first if r["entity"] == "claim" and r["after"] == "uncited")
    infrared_source = next(r["key"] for r in first if r["entity"] == "source" and r["detail"] == OKAFOR)
    growth_source = next(r["key"] for r in first if r["entity"] == "source" and r["detail"] == BRANDVOLD)
    assert pinned(first) == {("work", "added", key, None, "present") for key in (A, B, W, P, T)} | {
        ("cites", "added", f"{x} -> {y}", None, "present") for x, y in ((A, B), (A, W), (B, W), (P, B), (P, A), (P, T))
    } | {
        ("claim", "added", INFRARED, None, "supported"),
        ("claim", "added", GROWTH, None, "supported"),
        ("claim", "added", proxy, None, "uncited"),
        ("check", "added", claim_key(INFRARED, infrared_source), None, "supported"),
        ("check", "added", claim_key(GROWTH, growth_source), None, "supported"),
        ("source", "matched", infrared_source, None, B),
        ("source", "matched", growth_source, None, T),
    }
    titles = {r["key"]: r["detail"] for r in first if r["entity"] == "work"}
    assert titles[T] == "Field Notes on Lichen Growth Rates" and titles[W] == "Lichen Growth Rates: Field Notes"

    # A page re-checked: one verdict flips, and with it the claim's status.
    page = folder / PAGE
    page.write_text(
        page.read_text(encoding="utf-8")
        .replace(CHECKED, CHECKED + NOT_SUPPORTED)
        .replace("2 supported · 0 flagged", "1 supported · 0 flagged"),
        encoding="utf-8",
    )
    assert pinned(sequence.sync()) == {
        ("claim", "changed", INFRARED, "supported", "unsupported"),
        ("check", "flipped", claim_key(INFRARED, infrared_source), "supported", "not_supported"),
    }

    # A card deleted: the citation only it stated goes; what other documents state stays.
    (folder / "card_2501.10001.txt").unlink()
    assert pinned(sequence.sync()) == {("cites", "removed", f"{A} -> {W}", "present", None)}

    # A card that joins the work known by arXiv id (W) and the one known by title (T).
    shutil.copy(FIXTURES / "card_2303.40004.txt", folder)
    merged = sequence.sync()
    assert pinned(merged) == {
        ("work", "removed", T, "present", None),
        ("merge", "merged", T, None, W),
        ("cites", "added", f"{P} -> {W}", None, "present"),
        ("cites", "removed", f"{P} -> {T}", "present", None),
        ("source", "rematched", growth_source, T, W),
    }
    (merge,) = [r for r in merged if r["entity"] == "merge"]
    assert merge["detail"] == 'title "field notes on lichen growth rates" (2023)'
    after_merge = digest(kb, since=sequence.run_ids[2], watch=["2303.40004"]).markdown()

    # ... retracted: the merge is undone.
    (folder / "card_2303.40004.txt").unlink()
    assert pinned(sequence.sync()) == {
        ("work", "added", T, None, "present"),
        ("merge", "split", T, W, None),
        ("cites", "removed", f"{P} -> {W}", "present", None),
        ("cites", "added", f"{P} -> {T}", None, "present"),
        ("source", "rematched", growth_source, W, T),
    }

    # Net since the first run: the merge and its undoing cancel; so does nothing else.
    assert pinned(changes(kb, since=sequence.run_ids[0])) == {
        ("cites", "removed", f"{A} -> {W}", "present", None),
        ("claim", "changed", INFRARED, "supported", "unsupported"),
        ("check", "flipped", claim_key(INFRARED, infrared_source), "supported", "not_supported"),
    }
    # Net over every run: the graph as it is, everything added (the flipped verdict as it is now).
    everything = changes(kb)
    assert ("check", "added", claim_key(INFRARED, infrared_source), None, "not_supported") in pinned(everything)
    assert {(e, k, b, a) for e, _, k, b, a in pinned(everything)} == differences(
        {name: {} for name in graph_state(kb)}, graph_state(kb)
    )
    # Per paper, with the first (whole) run in the window: what concerns each paper of the
    # unfiltered answers, read around the paper only, over every run and for the first run.
    first = sequence.run_ids[0]
    for window, rows in (({}, everything), ({"run": first}, changes(kb, run=first))):
        mentioned = {r[column] for r in rows for column in ("paper", "other")} - {None}
        assert {A, B, W, P, T} <= mentioned
        for paper in mentioned:
            around = [r for r in rows if paper in (r["paper"], r["other"])]
            assert pinned(changes(kb, paper=paper, **window)) == pinned(around), (window, paper)
        # Any limit gives the head of the whole answer, though each kind is read only that far
        # and the things that later runs changed are left out of the graph's reading.
        for limit in range(1, len(rows) + 1):
            assert list(kb.query("changes_since", limit=limit, **window)) == rows[:limit], (window, limit)
    # The library query answers the same, as a notebook or Browser user runs it.
    assert pinned(kb.query("changes_since", after_run=sequence.run_ids[0], limit=100_000)) == pinned(
        changes(kb, since=sequence.run_ids[0])
    )
    # Per paper: the changes that concern the page's paper, net since the first run.
    assert pinned(changes(kb, since=sequence.run_ids[0], paper="2502.30003")) == {
        ("claim", "changed", INFRARED, "supported", "unsupported"),
        ("check", "flipped", claim_key(INFRARED, infrared_source), "supported", "not_supported"),
    }

    assert after_merge == "\n".join(
        [
            f"# paperkg digest: what changed since run {sequence.run_ids[2]}",
            "",
            f"Watching Field Notes on Lichen Growth Rates (2023) [{W}]. 5 net changes in this period.",
            "",
            "## New works citing the watched papers or the works they build on",
            "",
            f"- Lichen Cover as a Climate Proxy (2025) [{P}] cites Field Notes on Lichen Growth Rates (2023) [{W}]",
            "",
            "## New unsupported and unverifiable claims citing them",
            "",
            "No claim became unsupported or unverifiable in this period.",
            "",
            "## Flipped verdicts",
            "",
            "No verdict flipped in this period.",
            "",
            "## Merges and splits",
            "",
            f'- {T} merged into Field Notes on Lichen Growth Rates (2023) [{W}] — title "field notes on lichen growth '
            'rates" (2023)',
            "",
        ]
    )
    monday = digest(kb, since=sequence.run_ids[0], watch=["2401.20002"])
    assert monday.markdown() == "\n".join(
        [
            f"# paperkg digest: what changed since run {sequence.run_ids[0]}",
            "",
            f"Watching Spectral Signatures of Crustose Lichens (2024) [{B}]. 3 net changes in this period.",
            "",
            "## New works citing the watched papers or the works they build on",
            "",
            "No new work cites them in this period.",
            "",
            "## New unsupported and unverifiable claims citing them",
            "",
            '- unsupported (was supported): "Crustose lichens can be told from bare rock in short-wave infrared." '
            f"— made by Lichen Cover as a Climate Proxy (2025) [{P}]",
            "",
            "## Flipped verdicts",
            "",
            f"- supported → not_supported: source {OKAFOR} on claim {INFRARED} of Lichen Cover as a Climate Proxy "
            f"(2025) [{P}], which refers to Spectral Signatures of Crustose Lichens (2024) [{B}]",
            "",
            "## Merges and splits",
            "",
            "No work was merged or split in this period.",
            "",
        ]
    )
    page = monday.html()
    assert page.startswith("<!DOCTYPE html>") and "<script" not in page and "<link" not in page
    assert "<h2>Flipped verdicts</h2>" in page and "supported → not_supported: source Okafor &amp; Lind" in page
    assert '<p class="empty">No work was merged or split in this period.</p>' in page


def test_the_commands_list_runs_and_changes(kb, sequence, capsys):
    for name in ("card_2501.10001.txt", "card_2401.20002.txt"):
        shutil.copy(FIXTURES / name, sequence.folder)
    sequence.sync()
    (sequence.folder / "card_2501.10001.txt").unlink()
    sequence.sync()
    first, second = sequence.run_ids

    assert main(["runs", "--json"]) == 0
    history = json.loads(capsys.readouterr().out)
    assert [run["run_id"] for run in history] == [second, first]  # newest first
    assert [(run["status"], run["exit_code"], run["loader"]) for run in history] == [
        ("ok", 0, "transactions"),
        ("ok", 0, "transactions"),
    ]
    assert history[0]["totals"] == {"seen": 1, "new": 0, "changed": 0, "unchanged": 1, "rejected": 0, "retracted": 1}
    assert history[1]["totals"]["new"] == 2 and history[1]["seconds"] >= 0
    assert main(["runs"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert [line.split("  ")[0] for line in listed] == [second, first]
    assert all("  transactions  exit 0 ok  " in line for line in listed), listed

    assert main(["changes", "--run", second[:8], "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["complete"] is True
    assert pinned(out["changes"]) == {("cites", "removed", f"{A} -> {W}", "present", None)}

    assert main(["changes", "--since", first]) == 0
    assert capsys.readouterr().out == f"citation removed: {A} -> {W}\n"
    assert main(["changes", "--since", "7d", "--json"]) == 0
    # Works A, B and W, citations A->B and B->W: A->W came and went.
    assert len(json.loads(capsys.readouterr().out)["changes"]) == 5
    assert main(["changes", "--since", "2999-01-01"]) == 0
    assert capsys.readouterr().out == "no changes\n"
    assert main(["changes", "--since", "no-such-run"]) == 1
    assert capsys.readouterr().err == "paperkg: error: no run 'no-such-run': `paperkg runs` lists the runs\n"

    assert main(["digest", "--since", "7d", "--format", "md"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("# paperkg digest: what changed since 20")
    assert (
        "The whole corpus. 5 net changes in this period.\n\n## New works\n\n"
        f"- Lichen Growth Rates: Field Notes (2023) [{W}]\n- Spectral Signatures of Crustose Lichens (2024) [{B}]\n"
        f"- Counting Lichen Patches from Orbit (2025) [{A}]\n"
    ) in text
    assert "No verdict flipped in this period." in text


def test_a_run_that_fails_half_way_records_what_it_committed(kb, sequence, monkeypatch, capsys):
    for name in ("card_2501.10001.txt", "card_2401.20002.txt"):
        shutil.copy(FIXTURES / name, sequence.folder)
    real = incremental._transaction
    calls = []

    def lose_the_connection_second_time(*args):
        calls.append(1)
        if len(calls) == 2:
            raise ConnectionFailed("lost the connection to Neo4j while writing")
        return real(*args)

    monkeypatch.setattr(incremental, "_transaction", lose_the_connection_second_time)
    with pytest.raises(ConnectionFailed):
        ingestion.ingest_paths(kb, [sequence.folder], RunOptions(docs_per_transaction=1))
    (run,) = runs(kb)  # nothing more could be recorded: the run did not finish
    assert (run["status"], run["exit_code"], run["totals"], run["change_sets"]) == ("did not finish", None, None, 1)
    # The first card (2401.20002, first in path order) was committed, and its change set with it.
    assert pinned(changes(kb, run=run["run_id"])) == {
        ("work", "added", B, None, "present"),
        ("work", "added", A, None, "present"),
        ("work", "added", W, None, "present"),
        ("cites", "added", f"{A} -> {B}", None, "present"),
        ("cites", "added", f"{B} -> {W}", None, "present"),
    }
    assert main(["changes", "--run", run["run_id"], "--json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["complete"] is False
    # It had started on an empty graph: its one change set counts what it committed.
    assert whole_change_sets(kb) == [{"run_id": run["run_id"], "works": 3, "cites": 2, "documents": 1}]
    # The run again (its lock, left by a run that lost its connection, is this live process's:
    # released here): it adds what the first did not, entry by entry; the first keeps its own.
    kb.execute("MATCH (lock:IngestLock) DELETE lock")
    committed = pinned(changes(kb, run=run["run_id"]))
    assert pinned(sequence.sync()) == {
        ("cites", "added", f"{A} -> {W}", None, "present"),
    }
    assert pinned(changes(kb, run=run["run_id"])) == committed


def whole_change_sets(kb) -> list[dict]:
    return kb.cypher(
        "MATCH (cs:ChangeSet) WHERE cs.whole "
        "RETURN cs.run_id AS run_id, cs.works AS works, cs.cites AS cites, cs.documents AS documents"
    )


def test_a_first_ingest_keeps_one_change_set_of_counts_and_later_runs_keep_entries(kb, sequence):
    for name in ("card_2501.10001.txt", "card_2401.20002.txt", PAGE):
        shutil.copy(FIXTURES / name, sequence.folder)
    report = ingestion.ingest_paths(kb, [sequence.folder], RunOptions(docs_per_transaction=1))
    (counted,) = kb.cypher(
        "MATCH (cs:ChangeSet) RETURN cs.run_id AS run_id, cs.whole AS whole, cs.action AS action, cs.batch AS batch, "
        "cs.documents AS documents, [cs.works, cs.cites, cs.claims, cs.checks, cs.sources] AS counts, "
        "cs.entity IS NULL AS no_entries"
    )
    assert counted == {
        "run_id": report.run_id,
        "whole": True,
        "action": "write",
        "batch": 1,
        "documents": 3,
        "counts": [5, 6, 3, 2, 2],
        "no_entries": True,
    }
    assert report.to_dict()["changes_recorded"] == 18
    (run,) = runs(kb)
    assert (run["change_sets"], run["changes"]) == (1, 18)
    assert len(changes(kb, run=report.run_id)) == 18

    shutil.copy(FIXTURES / "card_2303.40004.txt", sequence.folder)
    later = sequence.sync()
    assert ("merge", "merged", T, None, W) in pinned(later)
    stored = kb.cypher(
        "MATCH (cs:ChangeSet {run_id: $run}) RETURN cs.whole AS whole, size(cs.entity) > 0 AS entries",
        run=later_run(kb),
    )
    assert stored == [{"whole": None, "entries": True}]


def later_run(kb) -> str:
    return runs(kb)[0]["run_id"]


def test_a_run_without_change_sets_writes_the_same_graph_and_stores_none(kb, tmp_path):
    for name in ("card_2501.10001.txt", "card_2401.20002.txt", PAGE):
        shutil.copy(FIXTURES / name, tmp_path)
    report = ingestion.ingest_paths(kb, [tmp_path], RunOptions(record_changes=False))
    assert "changes_recorded" not in report.to_dict()
    assert kb.cypher("MATCH (cs:ChangeSet) RETURN count(cs) AS n") == [{"n": 0}]
    without = dump(kb)
    kb.reset()
    ingestion.ingest_paths(kb, [tmp_path])
    assert kb.cypher("MATCH (cs:ChangeSet) RETURN count(cs) AS n") == [{"n": 1}]
    assert dump(kb) == without


def test_a_run_stopped_by_an_error_records_it_beside_the_change_sets_it_committed(kb, sequence, capsys, monkeypatch):
    shutil.copy(FIXTURES / "card_2401.20002.txt", sequence.folder)

    def full_disk(*args):
        raise OSError("No space left on device")

    monkeypatch.setattr(TransactionLoader, "retract", full_disk)
    with pytest.raises(OSError):
        sync_directory(kb, sequence.folder)
    (run,) = runs(kb)
    assert (run["status"], run["exit_code"], run["error"], run["change_sets"]) == (
        "failed",
        2,
        "No space left on device",
        1,
    )
    assert pinned(changes(kb, run=run["run_id"])) == {("work", "added", key, None, "present") for key in (B, A, W)} | {
        ("cites", "added", f"{x} -> {y}", None, "present") for x, y in ((A, B), (B, W))
    }
    assert main(["changes", "--run", run["run_id"]]) == 0
    captured = capsys.readouterr()
    assert captured.err == "this run did not finish: these are the changes of the transactions it committed\n"
    assert captured.out.splitlines()[0] == f"work added: {W} — Lichen Growth Rates: Field Notes"


def test_a_merge_undone_by_a_whole_node_going_back_is_a_split(kb, sequence):
    """W's card arrives while nothing else names W: the node of T (the page's reference by
    title) goes into W's new node. Retracted, W's node holds T's evidence alone and goes back
    into a node of T's: that is T split from W, and over the two runs nothing changed."""
    shutil.copy(FIXTURES / PAGE, sequence.folder)
    first = sequence.sync()
    growth_source = next(r["key"] for r in first if r["entity"] == "source" and r["detail"] == BRANDVOLD)

    shutil.copy(FIXTURES / "card_2303.40004.txt", sequence.folder)
    assert pinned(sequence.sync()) == {
        ("work", "added", W, None, "present"),
        ("work", "removed", T, "present", None),
        ("merge", "merged", T, None, W),
        ("cites", "added", f"{P} -> {W}", None, "present"),
        ("cites", "removed", f"{P} -> {T}", "present", None),
        ("source", "rematched", growth_source, T, W),
    }

    (sequence.folder / "card_2303.40004.txt").unlink()
    undone = sequence.sync()
    assert pinned(undone) == {
        ("work", "added", T, None, "present"),
        ("work", "removed", W, "present", None),
        ("merge", "split", T, W, None),
        ("cites", "removed", f"{P} -> {W}", "present", None),
        ("cites", "added", f"{P} -> {T}", None, "present"),
        ("source", "rematched", growth_source, W, T),
    }
    (split,) = [r for r in undone if r["entity"] == "merge"]
    assert split["detail"] == 'title "field notes on lichen growth rates" (2023)'
    assert changes(kb, since=sequence.run_ids[0]) == []


EARLY_CARD = """# Moss Spore Dispersal on Mountain Winds

arXiv: https://arxiv.org/abs/0001.00001 · HTML: https://mlsanity.com/paper/0001.00001/

## Key facts

- Cited by 0 papers in the map (data through 3 Feb 2026).
- Builds on 1 of its 9 references that are in the map.
- First posted on arXiv 4 Jan 2000.

## Builds on (most cited first, 1 of 1)

- [Spectral Signatures of Crustose Lichens](https://mlsanity.com/paper/2401.20002/) (2024)

## Abstract (arXiv)

Moss spores ride mountain winds further than their size suggests.
"""


def test_a_limited_answer_for_a_whole_run_skips_what_later_runs_added(kb, sequence):
    shutil.copy(FIXTURES / "card_2401.20002.txt", sequence.folder)
    sequence.sync()  # the first run, on an empty graph: a whole change set
    (sequence.folder / "card_0001.00001.txt").write_text(EARLY_CARD)
    sequence.sync()
    first = sequence.run_ids[0]
    rows = changes(kb, run=first)
    # The later card's work sorts first of all works but is not what the first run added.
    assert [r["key"] for r in rows if r["entity"] == "work"] == [W, B, A]
    for limit in range(1, len(rows) + 1):
        assert list(kb.query("changes_since", run=first, limit=limit)) == rows[:limit], limit


def test_the_digest_names_a_work_by_its_title_and_year_and_an_untitled_one_by_its_identifier_once():
    assert [
        work_label("arxiv:2401.20002", "Spectral Signatures of Crustose Lichens", 2024),
        work_label("arxiv:2401.20002", "Spectral Signatures of Crustose Lichens", None),
        work_label("doi:10.55123/fcr.2016.0311", None, 2016),
        work_label("title:70814cfab652042c", None, None),
    ] == [
        "Spectral Signatures of Crustose Lichens (2024) [arxiv:2401.20002]",
        "Spectral Signatures of Crustose Lichens [arxiv:2401.20002]",
        "doi:10.55123/fcr.2016.0311 (2016)",
        "title:70814cfab652042c",
    ]
