"""The errors paperkg reports to its users, and the exit codes the command line gives for them.

Every error a user can act on is a PaperkgError: its message is one line that says what went
wrong and what to do, and its class carries the exit code (the command line maps them in one
place, paperkg.cli.main). Exit codes: 0 done, 1 done but something failed (a document rejected,
an unknown paper), 2 not done (bad usage, no connection, a refused request), 3 the managed
server is not running (`db status`), 75 another run holds the ingestion lock (retry later)."""

from __future__ import annotations

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_STOPPED = 3  # the LSB's "program is not running"
EXIT_LOCKED = 75  # EX_TEMPFAIL: try again later


class PaperkgError(Exception):
    """A failure the user can act on, reported as its one-line message with `exit_code`."""

    exit_code: int = EXIT_USAGE  # each class's; an error of a command may carry its own (CommandError)


class MissingExtra(PaperkgError, ImportError):
    """An optional dependency is not installed; the message names the extra that brings it."""
