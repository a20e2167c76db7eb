"""Ingestion's defaults, in a module of their own so that `paperkg --help` can show them without
importing the driver."""

DOCS_PER_TRANSACTION = 200  # chosen by bench/run.py's batch-size runs (docs/benchmarks.md#how-the-write-path-is-fast)
MAX_DOCUMENT_BYTES = 50 * 1024 * 1024
# The fewest documents a run loads by the bulk path on its own into the managed server's empty
# graph (paperkg.run.ingest._loader). Below it the path's fixed costs (the export's worker
# processes and spill files, a LOAD CSV statement a file, the derived properties stored after)
# leave it no faster than transactions, which also keep memory to a batch and count each
# document's mentions. Set by bench/bulk_threshold.py's timings (docs/benchmarks.md#which-path-for-a-first-load).
BULK_MIN_DOCUMENTS = 1000
# The fewest documents such a run loads by the offline import instead (paperkg.load.admin_import):
# the importer writes the store directly, but a restart of the server and the importer's own
# start are fixed costs that the bulk load's statements overtake only in a larger corpus. Set by
# bench/run.py's first loads (docs/benchmarks.md#which-path-for-a-first-load).
OFFLINE_MIN_DOCUMENTS = 20_000
