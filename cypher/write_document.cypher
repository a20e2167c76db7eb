// name: write_document
// The provenance node of each document written in this transaction.
//
// param rows: list — one map per row to write, as paperkg/graph/rows.py builds them
// param run_id: string — the run's id
UNWIND $rows AS row
MERGE (d:Document {doc_id: row.doc_id})
SET d.path = row.path, d.sha256 = row.sha256, d.kind = row.kind, d.size_bytes = row.size_bytes,
    d.paper_key = row.paper_key, d.run_id = $run_id, d.ingested_at = datetime(),
    d.warnings = row.warnings;
