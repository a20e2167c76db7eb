// name: import_origin
// The run of an offline import (`paperkg export --admin-import`), read once the import is
// finished: the run id the export gave its documents, when it exported them, how many, and
// how much of each kind of change the graph holds (works, CITES, claims, checks, matched
// sources), all of which the import added. Nothing when the graph already has a run history:
// an import replaces the whole database, so a graph with history is not a fresh import.
MATCH (d:Document)
WHERE NOT EXISTS { MATCH (:IngestRun) } AND NOT EXISTS { MATCH (:ChangeSet) }
WITH d.run_id AS run_id, count(d) AS documents, min(d.ingested_at) AS exported
CALL () {
  RETURN COUNT { (:Paper) } AS works,
         COUNT { (:Paper)-[:CITES]->(:Paper) } AS cites,
         COUNT { (:Claim) } AS claims,
         COUNT { (:Claim)-[:CHECKED_AGAINST]->(:Source) } AS checks,
         COUNT { (s:Source) WHERE EXISTS { (s)-[:REFERS_TO]->(:Paper) } } AS sources
}
RETURN run_id, documents, exported, works, cites, claims, checks, sources
ORDER BY exported, run_id;
