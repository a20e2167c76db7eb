// name: record_whole_changes
// The one change set of a run that built the whole graph from nothing (a first ingest into
// an empty graph, or an offline import): counts of what the graph holds, not entries, since
// everything in it is what the run added. Every transaction of the run writes it again, so a
// run that stops half-way leaves the counts of what it committed; `changes_since` reads the
// things themselves from the graph. A paper CITES papers only and CHECKED_AGAINST joins a
// claim to a source, so those counts come from the count store (each CALL's plan is a
// NodeCountFromCountStore or RelationshipCountFromCountStore); the sources matched to a work
// are counted one by one, so only at the end of the run (`final`): a run that stopped
// half-way counts none. Returns how many things it counts.
//
// param action: string — what the run did (write, import)
// param documents: integer — documents the transaction wrote
// param final: boolean — the run's last write: count the matched sources too
// param run_id: string — the run's id
// param run_started: string — when the run began (ISO 8601, to the microsecond)
CALL () {
  WITH 1 AS needed WHERE $final
  MATCH (s:Source) WHERE EXISTS { (s)-[:REFERS_TO]->(:Paper) }
  RETURN count(s) AS matched
}
CALL () { MATCH (:Paper) RETURN count(*) AS works }
CALL () { MATCH (:Paper)-[:CITES]->() RETURN count(*) AS cites }
CALL () { MATCH (:Claim) RETURN count(*) AS claims }
CALL () { MATCH ()-[:CHECKED_AGAINST]->() RETURN count(*) AS checks }
MERGE (cs:ChangeSet {run_id: $run_id, batch: 1})
ON CREATE SET cs.run_started = $run_started, cs.action = $action, cs.whole = true, cs.documents = 0, cs.sources = 0
SET cs.documents = cs.documents + $documents, cs.committed_at = datetime(),
    cs.works = works, cs.cites = cites, cs.claims = claims, cs.checks = checks,
    cs.sources = CASE WHEN $final THEN matched ELSE cs.sources END
RETURN cs.works + cs.cites + cs.claims + cs.checks + cs.sources AS changes;
