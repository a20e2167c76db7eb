"""The offline import killed at each of its steps (tests/test_crash.py's switch), then the next
command: the graph is the one before the import until the new store is complete, and from then
on the new graph, finished, whatever step the import stopped at.

The walk is cut in two at the swap (`SWAP_STEPS`), in two files that the suite's two workers
run side by side: each step costs an import and a restart of the server."""

from __future__ import annotations

import shutil
from pathlib import Path

from test_crash import EDITED, EXAMPLES, killed_at, small_corpus

from paperkg.run.ingest import ingest_paths

from graph_dump import dump
from procs import run

# The export, the import beside the served graph, the record that its store is complete (the
# old graph until here), the two renames of the swap and the record's removal.
SWAP_STEPS = 6
BEFORE_COMPLETE = 3  # the steps killed at which the old graph stays


def walk_import(kb, tmp_path: Path, first: int, last: int | None) -> list[bool]:
    """For k = first, …, last (None: until the import runs to its end): the old graph ingested,
    `export --admin-import --load` of another corpus killed at step k, `paperkg stats`, and the
    graph either the old one or the new one, whole. Whether each was the new one."""
    corpus = small_corpus(tmp_path)
    ingest_paths(kb, [corpus])
    new = dump(kb)
    old_corpus = tmp_path / "old"
    old_corpus.mkdir()
    shutil.copy(EXAMPLES / EDITED, old_corpus / EDITED)
    export = tmp_path / "export"

    def old_graph() -> None:
        kb.reset()
        ingest_paths(kb, [old_corpus])
        shutil.rmtree(export, ignore_errors=True)

    old_graph()
    old = dump(kb)
    assert old != new
    command = ("export", "--admin-import", str(export), str(corpus), "--load")
    served_new = []
    step = first
    while last is None or step <= last:
        old_graph()
        if not killed_at(step, *command):
            assert last is None, f"the import ran to its end before step {step}"
            kb.reconnect()
            assert dump(kb) == new
            assert kb.cypher("MATCH (l:IngestLock) RETURN count(l) AS locks") == [{"locks": 0}]
            break
        then = run("stats")
        assert then.returncode == 0, f"killed at step {step}, then: {then.stderr}"
        kb.reconnect()  # the store may have been replaced: this driver's bookmarks are of the old one
        graph = dump(kb)
        assert graph in (old, new), f"killed at step {step}: a graph that is neither"
        served_new.append(graph == new)
        step += 1
    return served_new


def test_an_import_killed_up_to_its_swap_leaves_the_old_graph_until_its_store_is_complete(kb, tmp_path):
    served_new = walk_import(kb, tmp_path, 1, SWAP_STEPS)
    assert served_new == [False] * BEFORE_COMPLETE + [True] * (SWAP_STEPS - BEFORE_COMPLETE)
