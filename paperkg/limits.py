"""Ingestion's defaults, in a module of their own so that `paperkg --help` can show them without
importing the driver."""

DOCS_PER_TRANSACTION = 200  # chosen by bench/run.py's batch-size runs (docs/benchmarks.md#how-the-write-path-is-fast)
MAX_DOCUMENT_BYTES = 50 * 1024 * 1024
