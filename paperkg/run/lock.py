"""The ingestion lock, kept in the database so that jobs on any machine see it.

One run writes at a time. A second run waits (``wait`` seconds) or fails with LockHeld.
A lock left by a killed run is taken over when its process is gone (same host: no process has
its pid, or the one that has it started at another time, the pid reused) or its heartbeat is
older than ``stale_after`` seconds (any host).
"""

from __future__ import annotations

import os
import socket
import time
import uuid

from neo4j.exceptions import DriverError, Neo4jError, ServiceUnavailable, SessionExpired

from paperkg.cypher_files import statement
from paperkg.db import ConnectionFailed, KnowledgeBase, log
from paperkg.errors import EXIT_LOCKED, PaperkgError
from paperkg.load.admin_import import IMPORT, discard_run_export, finish_import
from paperkg.load.bulk import discard_unfinished_load
from paperkg.load.loader import HEARTBEATS_PER_STALE_AFTER, LOCK_NAME
from paperkg.server import process_alive, process_start
from paperkg.write_steps import write_step

STALE_AFTER_SECONDS = 600


class LockHeld(PaperkgError):
    """Another run holds the ingestion lock."""

    exit_code = EXIT_LOCKED


class LockLost(PaperkgError):
    """The lock was taken over while this run held it (it was judged stale)."""

    exit_code = EXIT_LOCKED


class IngestLock:
    def __init__(self, kb: KnowledgeBase, wait: float = 0.0, stale_after: int = STALE_AFTER_SECONDS):
        self.kb = kb
        self.wait = wait
        self.stale_after = stale_after
        self.beaten_at = float("-inf")  # time.monotonic() when the lock was taken or last shown alive
        self.owner = str(uuid.uuid4())
        self.holder = {
            "owner": self.owner,
            "host": socket.gethostname(),
            "pid": os.getpid(),
            "process_start": process_start(os.getpid()),
        }

    def __enter__(self) -> IngestLock:
        self.acquire()
        self.beaten_at = time.monotonic()
        return self

    def __exit__(self, exc_type: object, exc: BaseException | None, traceback: object) -> None:
        if isinstance(exc, (ConnectionFailed, ServiceUnavailable, SessionExpired)):
            return  # the server is gone (releasing would retry for seconds); the next run takes the lock over
        try:
            self.release()
        except (DriverError, Neo4jError):
            if exc is None:
                raise
            # The run failed already, and that first failure is the one to report.

    def acquire(self) -> None:
        deadline = time.monotonic() + self.wait
        while True:
            (held,) = self.kb.execute(
                statement("lock_acquire"), name=LOCK_NAME, holder=self.holder, stale_after=self.stale_after
            )
            if held["owner"] == self.owner:
                return
            if self._is_stale(held):
                taken = self.kb.execute(
                    statement("lock_take_over"), name=LOCK_NAME, stale_owner=held["owner"], holder=self.holder
                )
                if taken:
                    if taken[0]["unfinished_load"]:
                        self._complete_unfinished_load(taken[0]["unfinished_load"], taken[0]["load_kind"])
                    discard_run_export(self.kb)  # the holder's export for an offline import, if it left one
                    return
            if time.monotonic() >= deadline:
                raise LockHeld(
                    f"another ingestion holds the lock (host {held['host']}, pid {held['pid']}, "
                    f"since {held['acquired_at']}); retry later or pass --wait SECONDS"
                )
            time.sleep(min(1.0, max(0.0, deadline - time.monotonic())))

    def heartbeat(self, now: bool = False) -> None:
        """Show the holder is alive, at most every HEARTBEATS_PER_STALE_AFTER-th of `stale_after`
        (one round trip per batch was a large share of a re-ingest of unchanged documents).
        The lock can only be taken over once a heartbeat is `stale_after` old, so the first
        call after that still finds it lost, as one per batch would. `now`: at once, however
        recently the lock was shown alive: the graph an offline import swaps in holds the lock
        as its export wrote it, before the import."""
        if not now and time.monotonic() - self.beaten_at < self.stale_after / HEARTBEATS_PER_STALE_AFTER:
            return
        if not self.kb.execute(statement("lock_heartbeat"), name=LOCK_NAME, owner=self.owner):
            raise LockLost("the ingestion lock was taken over by another run; stopping")
        self.beaten_at = time.monotonic()

    def mark_unfinished_load(self, load: str | None, kind: str | None = None) -> None:
        """Mark the load `load` (a run id) of `kind` ('bulk' or 'import') as unfinished, or (None)
        as finished: a holder that stops before it unmarks leaves the mark to the one that
        takes the lock over, which finishes or undoes the load."""
        self.kb.execute(
            statement("lock_unfinished_load"), name=LOCK_NAME, owner=self.owner, load=load, kind=kind if load else None
        )

    def _complete_unfinished_load(self, load: str, kind: str | None) -> None:
        """The stale holder's load did not finish. A bulk load began on an empty graph
        (paperkg.load.bulk): what it wrote goes. An offline import's graph is whole, and its
        steps on the server are taken (paperkg.load.admin_import). Either before this holder
        writes or reads; the mark goes once it is done."""
        if kind == IMPORT:
            log.warning(f"an offline import (run {load}) is not finished on the server: finishing it")
            finish_import(self.kb)
        else:
            log.warning(f"a bulk load (run {load}) stopped before it finished: removing what it wrote")
            discard_unfinished_load(self.kb, load)
        self.mark_unfinished_load(None)

    def release(self) -> None:
        write_step()
        self.kb.execute(statement("lock_release"), name=LOCK_NAME, owner=self.owner)

    def _is_stale(self, held: dict) -> bool:
        if held["expired"]:
            return True
        pid = held["pid"]
        if pid is None:  # an imported lock: no process holds it
            return True
        if held["host"] != self.holder["host"]:
            return False
        if not process_alive(pid):
            return True
        return held["process_start"] is not None and process_start(pid) != held["process_start"]


def complete_unfinished_load(kb: KnowledgeBase) -> None:
    """Before a command uses the graph: finish or undo a load the lock marks as unfinished whose
    holder is gone, by taking the lock over (IngestLock.acquire). One whose holder is alive is
    still running, and is left to it."""
    if not kb.read("unfinished_loads"):
        return
    try:
        with IngestLock(kb):
            pass
    except LockHeld:
        pass
