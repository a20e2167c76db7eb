"""The offline import killed at each step after its swap (tests/test_crash_import.py walks the
steps before): the next command finishes the new graph, whatever step the import stopped at."""

from __future__ import annotations

from test_crash_import import SWAP_STEPS, walk_import


def test_an_import_killed_after_its_swap_is_finished_by_the_next_command(kb, tmp_path):
    served_new = walk_import(kb, tmp_path, SWAP_STEPS + 1, None)
    # The stamp and lock checked, the schema and derived properties, the empty lists, the run's
    # record, the lock let go: each step walked, each ending in the new graph, whole.
    assert served_new == [True] * len(served_new) and len(served_new) >= 4
