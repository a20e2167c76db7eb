"""Ingestion's defaults, in a module of their own so that `paperkg --help` can show them without
importing the driver."""

DOCS_PER_TRANSACTION = 200  # bench/run.py: 20 → 200 halves a 2k-paper ingest; 500 is slower again
MAX_DOCUMENT_BYTES = 50 * 1024 * 1024
