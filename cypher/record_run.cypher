// name: record_run
// One node per ingestion run with what it saw.
//
// param properties: map — the run's report: totals, timings and exit status
// param run_id: string — the run's id
MERGE (r:IngestRun {run_id: $run_id})
SET r += $properties;
