"""`neo4j-admin database import full` of an export into a stopped instance, as a process of
its own so that bench/run.py can measure the importer's peak memory (its JVM is this
process's child): python bench/offline_import.py HOME DIRECTORY [--heap SIZE] [--off-heap SIZE]
[--page-cache SIZE] (by default the settings `paperkg export --load` uses)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from paperkg.load.admin_import import IMPORT_HEAP, IMPORT_OFF_HEAP, IMPORT_PAGE_CACHE, ExportError, import_into
from paperkg.server import Instance


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("home", help="the stopped instance's home")
    parser.add_argument("directory", help="the export (paperkg export --admin-import DIR)")
    parser.add_argument("--heap", default=IMPORT_HEAP, help="the importer's JVM heap")
    parser.add_argument("--off-heap", default=IMPORT_OFF_HEAP, help="the importer's --max-off-heap-memory")
    parser.add_argument("--page-cache", default=IMPORT_PAGE_CACHE, help="the importer's page cache")
    args = parser.parse_args()
    try:
        import_into(
            Instance(Path(args.home)),
            Path(args.directory),
            heap=args.heap,
            off_heap=args.off_heap,
            page_cache=args.page_cache,
        )
    except ExportError as exc:
        print(f"offline_import: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
