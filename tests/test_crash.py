"""Deterministic crash tests: a command killed at each of its write steps in turn, then the next
command, and the graph compared with a clean one's.

`PAPERKG_KILL_AT_WRITE=k` makes a paperkg process kill itself (SIGKILL) at its k-th write step
(paperkg.write_steps): k walks 1, 2, … until the command runs to its end, so every step is
covered, not a sample of moments (SQLite's crash tests are the model). After each kill the next
command runs as a user would run it, and the graph must be the one a clean run gives: a run
killed between two of its transactions leaves what it committed, and the next finishes it; a
bulk load killed at any statement leaves its mark on the lock, and the next command removes what
it wrote before it loads again.
"""

from __future__ import annotations

import shutil
import signal
from pathlib import Path

import pytest

from paperkg.run.answers import answers, drop
from paperkg.run.ingest import ingest_paths
from paperkg.write_steps import KILL_AT

from graph_dump import dump
from procs import environment, run

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "corpus"
# A few documents of examples/corpus, two claim-check pages among them: enough for several
# transactions, few enough that walking every step stays short.
DOCUMENTS = ("card_2107.11820.txt", "card_2103.07781.txt", "card_2205.03349.txt", "page_2405.01127.txt")
EDITED = "page_2310.05512.txt"  # what the sync adds, after one document goes
BATCH = "2"


def small_corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "corpus"
    folder.mkdir()
    for name in DOCUMENTS:
        shutil.copy(EXAMPLES / name, folder / name)
    return folder


@pytest.fixture
def corpus(tmp_path) -> Path:
    return small_corpus(tmp_path)


def killed_at(step: int, *args: str) -> bool:
    """Run `paperkg ARGS` to be killed at write step `step`: True if it was, False if it ran to
    its end first (it then succeeded)."""
    result = run(*args, env=environment(**{KILL_AT: str(step)}))
    if result.returncode == -signal.SIGKILL:
        return True
    assert result.returncode == 0, result.stderr
    return False


def walk(kb, prepare, command: tuple[str, ...], then: tuple[str, ...], expected, state=dump) -> int:
    """For k = 1, 2, …: `prepare()`, `paperkg COMMAND` killed at step k, `paperkg THEN`, and
    `state(kb)` (the graph's dump) equal to `expected`; until the command runs to its end. The
    steps walked."""
    step = 1
    while True:
        prepare()
        if not killed_at(step, *command):
            return step - 1
        result = run(*then)
        assert result.returncode == 0, f"killed at step {step}, then: {result.stderr}"
        assert state(kb) == expected, f"killed at write step {step} of {' '.join(command)}"
        step += 1


def test_an_ingest_killed_at_any_write_step_is_finished_by_the_next(kb, corpus):
    ingest_paths(kb, [corpus])
    clean = dump(kb)
    command = ("ingest", "--batch", BATCH, str(corpus))
    steps = walk(kb, kb.reset, command, then=("ingest", str(corpus)), expected=clean)
    assert steps >= 4  # the schema, two transactions, the run's record at least


def test_a_sync_killed_at_any_write_step_is_finished_by_the_next(kb, corpus):
    def edited() -> None:  # one document gone, another new
        (corpus / DOCUMENTS[0]).unlink()
        shutil.copy(EXAMPLES / EDITED, corpus / EDITED)

    def synced_before_the_edit() -> None:
        kb.reset()
        (corpus / EDITED).unlink(missing_ok=True)
        shutil.copy(EXAMPLES / DOCUMENTS[0], corpus / DOCUMENTS[0])
        ingest_paths(kb, [corpus])
        edited()

    edited()
    ingest_paths(kb, [corpus])
    clean = dump(kb)
    command = ("sync", "--batch", BATCH, str(corpus))
    steps = walk(kb, synced_before_the_edit, command, then=("sync", str(corpus)), expected=clean)
    assert steps >= 3  # a write, a retraction, the run's record at least


def test_a_bulk_load_killed_at_any_write_step_is_removed_by_the_next_command(kb, corpus):
    ingest_paths(kb, [corpus])
    clean = dump(kb)
    steps = walk(kb, kb.reset, ("ingest", "--bulk", str(corpus)), ("ingest", str(corpus)), clean)
    assert steps >= 15  # the export, every statement of cypher/bulk_load.cypher, the derived properties, the record


def analysis(kb) -> dict:
    """What `paperkg analyze` stores, as the library reads it, and the graph beside it."""
    return {
        "graph": dump(kb),
        "top_papers": kb.query("top_papers", limit=50),
        "clusters": kb.query("clusters"),
    }


def test_an_analysis_killed_at_any_write_step_is_made_whole_by_the_next(kb, corpus):
    ingest_paths(kb, [corpus])
    assert run("analyze").returncode == 0
    clean = analysis(kb)

    def ingested() -> None:
        kb.reset()
        ingest_paths(kb, [corpus])

    steps = walk(kb, ingested, ("analyze",), ("analyze",), clean, state=analysis)
    assert steps >= 4  # the schema, the papers, the clusters, the run


def stored_answers(kb) -> list[tuple]:
    """Each stored answer's query, whether it is current, and its rows."""
    return [(row["query"], row["current"], row["rows"]) for row in answers(kb)]


def test_a_precompute_killed_at_any_write_step_is_completed_by_the_next(kb, corpus):
    ingest_paths(kb, [corpus])
    assert run("precompute").returncode == 0
    clean = stored_answers(kb)

    def without_answers() -> None:
        drop(kb)

    steps = walk(kb, without_answers, ("precompute",), ("precompute",), clean, state=stored_answers)
    assert steps >= len(clean) >= 2  # an answer stored a step, at least
