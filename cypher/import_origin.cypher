// name: import_origin
// The run of an offline import (`paperkg export --admin-import`), read once the import is
// finished: the run id the export gave its documents, when it exported them and how many.
// Nothing when the graph already has a run history: an import replaces the whole database,
// so a graph with history is not a fresh import.
MATCH (d:Document)
WHERE NOT EXISTS { MATCH (:IngestRun) } AND NOT EXISTS { MATCH (:ChangeSet) }
WITH d.run_id AS run_id, count(d) AS documents, min(d.ingested_at) AS exported
RETURN run_id, documents, exported
ORDER BY exported, run_id;
