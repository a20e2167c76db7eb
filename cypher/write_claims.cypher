// name: write_claims
// The claims a page's paper makes.
//
// param rows: list — one map per row to write, as paperkg/graph/rows.py builds them
UNWIND $rows AS row
MATCH (paper:Paper {paper_id: row.paper_id}), (d:Document {doc_id: row.doc_id})
MERGE (c:Claim {claim_id: row.claim_id})
SET c += row.properties
MERGE (paper)-[r:MAKES]->(c)
SET r.docs = CASE WHEN row.doc_id IN coalesce(r.docs, []) THEN r.docs ELSE coalesce(r.docs, []) + row.doc_id END
MERGE (d)-[:MENTIONS]->(c);
