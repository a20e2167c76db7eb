// name: write_paper_cites
// (:Paper)-[:CITES]->(:Paper), one relationship per pair however many
// documents assert it; docs lists them. One row per pair (the batch's documents combined).
//
// param rows: list — one map per row to write, as ingest/graph/rows.py builds them
UNWIND $rows AS row
MATCH (citing:Paper {paper_id: row.citing}), (cited:Paper {paper_id: row.cited})
MERGE (citing)-[r:CITES]->(cited)
SET r.docs = coalesce(r.docs, []) + [doc IN row.doc_ids WHERE NOT doc IN coalesce(r.docs, [])];
