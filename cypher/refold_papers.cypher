// name: refold_papers
// A paper's properties are what its documents say, each taken from the statement of the
// smallest precedence that states it (ingest/graph/write.py `precedence` is the order: the
// best-ranked document, ties by document id, then by evidence key), the others filling gaps.
// Identifiers ($kept) are resolution's, not the fold's. Run after a
// retraction or a merge, which may change any of them: a property only a withdrawn document
// stated disappears. (After a write, which only adds statements, refold_contested does less.)
// Each property is taken from its best statement among those that state it: a popular paper
// has thousands of statements, and most properties only a few of them state.
// Setting a property to its current value writes nothing. `title_lower` and the claim counts
// are derived (title_lower.cypher, claim_counts.cypher, stored after the fold).
//
// param kept: list — identity and derived properties, which resolution and their own statements set and the fold leaves
// param paper_ids: list — paper_ids of the papers concerned
// param unit_properties: list — properties a document states about a unit, not the paper
UNWIND $paper_ids AS paper_id
MATCH (p:Paper {paper_id: paper_id})
CALL (p) {
  MATCH (:Document)-[m:MENTIONS]->(p)
  UNWIND keys(m) AS key
  WITH DISTINCT key WHERE NOT key IN $unit_properties
  RETURN collect(key) AS folded_keys
}
FOREACH (key IN [key IN keys(p) WHERE NOT key IN $kept AND NOT key IN folded_keys] |
  REMOVE p[key])
WITH p, folded_keys
CALL (p, folded_keys) {
  UNWIND folded_keys AS key
  CALL (p, key) {
    MATCH (:Document)-[m:MENTIONS]->(p)
    WHERE m[key] IS NOT NULL
    WITH m[key] AS value ORDER BY m.precedence LIMIT 1
    SET p[key] = value
  }
};
