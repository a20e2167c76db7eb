// name: write_papers
// One row per work, with each document's statement about it (kept on its
// MENTIONS, one per distinct evidence) and the batch's fold of them (row.folded; null for a
// single statement). A new paper gets the fold whole; an existing one only the properties it
// lacks (no earlier statement states those). Returns the papers it created, and those whose
// other properties some statement gives another value than the node has: refold_contested
// settles those (and a lacking title), so the node never depends on the order of ingestion.
// Only these papers' titles can have been set, so only they need title_lower.
// CREATE, not MERGE: a batch's documents are new or just retracted, so none of their MENTIONS
// exists yet (MERGE would scan every relationship of a popular paper). Likewise row.new says
// the paper has no node yet (identity resolution found none); the others are merged, not
// matched, so a node missing after all would get its properties as lacking and contested ones.
//
// param rows: list — one map per row to write, as paperkg/graph/rows.py builds them
UNWIND $rows AS row
WITH row, coalesce(row.folded, head(row.mentions).properties) AS folded
CALL (row, folded) {
  WITH row WHERE row.new
  CREATE (p:Paper {paper_id: row.paper_id})
  SET p += folded
  RETURN p
  UNION
  WITH row WHERE NOT row.new
  MERGE (p:Paper {paper_id: row.paper_id})
  RETURN p
}
WITH p, row, folded, CASE WHEN row.new THEN [] ELSE [key IN keys(folded) WHERE p[key] IS NULL AND key <> 'title']
                    END AS lacking
WITH p, row, folded, lacking, CASE WHEN row.new THEN [] ELSE reduce(found = [], mention IN row.mentions | found +
                 [key IN keys(mention.properties) WHERE NOT coalesce(p[key] = mention.properties[key], false)
                  AND NOT key IN found AND NOT key IN lacking]) END AS contested_keys
FOREACH (key IN lacking | SET p[key] = folded[key])
WITH p, row, contested_keys
CALL (p, row) {
  UNWIND row.mentions AS mention
  MATCH (d:Document {doc_id: mention.doc_id})
  CREATE (d)-[m:MENTIONS]->(p)
  SET m = mention.properties, m += mention.unit, m.precedence = mention.precedence
}
WITH row, contested_keys WHERE size(contested_keys) > 0 OR row.new
RETURN row.paper_id AS paper_id, contested_keys, row.new AS created;
