// record_run: one node per ingestion run with what it saw.
MERGE (r:IngestRun {run_id: $run_id})
SET r += $properties;
