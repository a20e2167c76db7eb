// name: write_claim_cites
// (:Claim)-[:CITES]->(:Source) for every listed cite.
//
// param rows: list — one map per row to write, as paperkg/graph/rows.py builds them
UNWIND $rows AS row
MATCH (c:Claim {claim_id: row.claim_id}), (s:Source {source_id: row.source_id})
MERGE (c)-[r:CITES]->(s)
SET r.docs = CASE WHEN row.doc_id IN coalesce(r.docs, []) THEN r.docs ELSE coalesce(r.docs, []) + row.doc_id END;
