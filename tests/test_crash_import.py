"""The offline import killed at each of its steps (tests/test_crash.py's switch), then the next
command: the graph is the one before the import until the new store is complete, and from then
on the new graph, finished, whatever step the import stopped at."""

from __future__ import annotations

import shutil

from test_crash import EDITED, EXAMPLES, killed_at, small_corpus

from paperkg.run.ingest import ingest_paths

from graph_dump import dump
from procs import run


def test_an_offline_import_killed_at_any_step_leaves_the_old_graph_or_the_whole_new_one(kb, tmp_path):
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
    served_new = []  # at each step killed: whether the next command found the new graph
    step = 1
    while True:
        old_graph()
        if not killed_at(step, *command):
            break
        then = run("stats")
        assert then.returncode == 0, f"killed at step {step}, then: {then.stderr}"
        kb.reconnect()  # the store may have been replaced: this driver's bookmarks are of the old one
        graph = dump(kb)
        assert graph in (old, new), f"killed at step {step}: a graph that is neither"
        served_new.append(graph == new)
        step += 1
    kb.reconnect()
    assert dump(kb) == new
    # The old graph until the new store is complete (the export, the import beside it, its record), the
    # new one from the moment it is: the swap's steps, each finishing step.
    assert served_new == [False] * 3 + [True] * (len(served_new) - 3), served_new
    assert len(served_new) >= 9
    assert kb.cypher("MATCH (l:IngestLock) RETURN count(l) AS locks") == [{"locks": 0}]
