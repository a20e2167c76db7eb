"""The write steps of paperkg's commands, counted, and a switch for tests to die at one of them.

Every place where a command writes to the graph or the store (a transaction, a statement of the
bulk load, a stage of the offline import, a finishing step, an analysis or precomputed answer
written) calls `write_step` first. With PAPERKG_KILL_AT_WRITE=k in its environment, a process
kills itself (SIGKILL: no cleanup, no `finally`, as a machine that dies) at its k-th step; the
crash tests (tests/test_crash.py) walk k over every step of a command and check what the next
command makes of the graph it left. Unset, `write_step` only counts.
"""

from __future__ import annotations

import os
import signal

KILL_AT = "PAPERKG_KILL_AT_WRITE"

_steps = 0


def write_step() -> None:
    """Count a write step, about to be taken; at the k-th, with KILL_AT set to k, die."""
    global _steps
    _steps += 1
    if os.environ.get(KILL_AT) == str(_steps):
        os.kill(os.getpid(), signal.SIGKILL)
