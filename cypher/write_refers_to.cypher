// name: write_refers_to
// (:Source)-[:REFERS_TO]->(:Paper), a source key resolved to a work in
// the page's reference list.
//
// param rows: list — one map per row to write, as paperkg/graph/rows.py builds them
UNWIND $rows AS row
MATCH (s:Source {source_id: row.source_id}), (p:Paper {paper_id: row.paper_id})
MERGE (s)-[r:REFERS_TO]->(p)
SET r.docs = CASE WHEN row.doc_id IN coalesce(r.docs, []) THEN r.docs ELSE coalesce(r.docs, []) + row.doc_id END;
