// analysis_record_run: one node per `paperkg analyze` run, with what it computed and how.
MERGE (r:AnalysisRun {run_id: $run_id})
SET r += $properties;
