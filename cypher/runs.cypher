// name: runs
// The run history, newest first: each recorded run (IngestRun) with its change sets
// counted, and each run that left change sets but no record (it stopped before the end).
//
// param limit: integer — the most runs to return
CALL () {
  MATCH (r:IngestRun)
  RETURN r.run_id AS run_id, coalesce(r.run_started, r.started_at) AS started, properties(r) AS run
  UNION
  MATCH (cs:ChangeSet)
  WITH cs.run_id AS run_id, min(cs.run_started) AS started
  WHERE NOT EXISTS { MATCH (:IngestRun {run_id: run_id}) }
  RETURN run_id, started, null AS run
}
CALL (run_id) {
  OPTIONAL MATCH (cs:ChangeSet {run_id: run_id})
  // A whole run's change set counts what it added (paperkg/graph/changes.py).
  RETURN count(cs) AS change_sets,
         sum(CASE WHEN cs.whole THEN cs.works + cs.cites + cs.claims + cs.checks + cs.sources
                  ELSE size(coalesce(cs.entity, [])) END) AS changes,
         max(cs.committed_at) AS last_commit
}
RETURN run_id, started, run, change_sets, changes, toString(last_commit) AS last_commit
ORDER BY started DESC, run_id
LIMIT $limit;
