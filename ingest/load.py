"""Ingesting documents once, as a script: `python ingest/load.py PATH... [OPTION...]` is
`paperkg ingest PATH... [OPTION...]`, with its output and exit codes."""

import sys

from paperkg.cli import main

if __name__ == "__main__":
    raise SystemExit(main(["ingest", *sys.argv[1:]]))
