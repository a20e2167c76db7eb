"""Progress on stderr for the waits a user would otherwise sit through in silence (resolving
Neo4j's jars, building the Browser extension, starting the server): what is happening, how long
it has taken so far, and how long it took."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

# On a terminal the elapsed time is rewritten in place every second; in a log, a line this often.
LOG_EVERY_SECONDS = 10.0


@contextmanager
def waiting(what: str) -> Iterator[None]:
    """Say `paperkg: <what> …` now, the elapsed time while it lasts, and `done in N s` after."""
    stream = sys.stderr
    terminal = stream.isatty()
    start = time.monotonic()
    done = threading.Event()

    start_of_line = "\r" if terminal else ""

    def say(text: str, end: str = "\n") -> None:
        try:
            stream.write(f"{start_of_line}paperkg: {text}{end}")
            stream.flush()
        except (OSError, ValueError):  # a closed stderr must not stop the wait itself
            pass

    def tick() -> None:
        while not done.wait(1.0 if terminal else LOG_EVERY_SECONDS):
            say(f"{what} … {time.monotonic() - start:.0f} s", end="" if terminal else "\n")

    say(f"{what} …", end="" if terminal else "\n")
    ticker = threading.Thread(target=tick, name="paperkg-progress", daemon=True)
    ticker.start()
    try:
        yield
    except BaseException:
        done.set()
        ticker.join()
        if terminal:
            say(f"{what} … failed after {time.monotonic() - start:.0f} s")
        raise
    done.set()
    ticker.join()
    say(f"{what} … done in {time.monotonic() - start:.0f} s")


def note(text: str) -> None:
    """One line of progress on stderr."""
    print(f"paperkg: {text}", file=sys.stderr, flush=True)
