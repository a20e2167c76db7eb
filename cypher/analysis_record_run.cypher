// name: analysis_record_run
// One node per `paperkg analyze` run, with what it computed and how.
//
// param properties: map — what the analysis computed and how
// param run_id: string — the run's id
MERGE (r:AnalysisRun {run_id: $run_id})
SET r += $properties;
