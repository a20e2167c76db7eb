// name: write_checks
// (:Claim)-[:CHECKED_AGAINST]->(:Source) for every checked source, and
// (:Source)-[:SUPPORTS]->(:Claim) where the check found support (and only there).
//
// param rows: list — one map per row to write, as paperkg/graph/rows.py builds them
UNWIND $rows AS row
MATCH (c:Claim {claim_id: row.claim_id}), (s:Source {source_id: row.source_id})
MERGE (c)-[r:CHECKED_AGAINST]->(s)
SET r.verdict = row.verdict, r.confidence = row.confidence, r.rationale = row.rationale,
    r.ambiguous = row.ambiguous,
    r.docs = CASE WHEN row.doc_id IN coalesce(r.docs, []) THEN r.docs ELSE coalesce(r.docs, []) + row.doc_id END
WITH c, s, row
WHERE row.verdict = 'supported'
MERGE (s)-[support:SUPPORTS]->(c)
SET support.docs = CASE WHEN row.doc_id IN coalesce(support.docs, []) THEN support.docs
                   ELSE coalesce(support.docs, []) + row.doc_id END;
