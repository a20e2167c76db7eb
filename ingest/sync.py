"""The periodic re-ingestion job, as a script a scheduler runs: `python ingest/sync.py DIR
[OPTION...]` is `paperkg sync DIR [OPTION...]`, with its output and exit codes (0 done, 1 some
documents rejected, 2 no connection or bad usage, 75 another run holds the lock)."""

import sys

from paperkg.cli import main

if __name__ == "__main__":
    raise SystemExit(main(["sync", *sys.argv[1:]]))
