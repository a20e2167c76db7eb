// name: write_paper_cites
// (:Paper)-[:CITES]->(:Paper), one relationship per pair however many
// documents assert it; docs lists them. One row per pair (the batch's documents combined).
// CREATE, not MERGE, when row.new: one of the pair's papers was created by this batch, so no
// relationship between them exists yet (MERGE would look for it among a paper's citations).
//
// param rows: list — one map per row to write, as paperkg/graph/rows.py builds them
UNWIND $rows AS row
MATCH (citing:Paper {paper_id: row.citing}), (cited:Paper {paper_id: row.cited})
CALL (citing, cited, row) {
  WITH citing, cited, row WHERE row.new
  CREATE (citing)-[:CITES {docs: row.doc_ids}]->(cited)
}
CALL (citing, cited, row) {
  WITH citing, cited, row WHERE NOT row.new
  MERGE (citing)-[r:CITES]->(cited)
  SET r.docs = coalesce(r.docs, []) + [doc IN row.doc_ids WHERE NOT doc IN coalesce(r.docs, [])]
};
