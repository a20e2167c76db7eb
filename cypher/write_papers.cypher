// write_papers: one row per work, with what each document of the batch says about it. A
// document's statement is kept on its MENTIONS relationship; the node's properties are
// folded from those by refold_papers, so they never depend on the order of ingestion.
// Returns the papers that need that refold, with the properties to fold again: those some
// statement of the batch gives a value the node does not have. Where every stated value is
// already there, the fold cannot change (whichever mention wins a property, it has that
// value), so a popular paper is not refolded each time another document names it the same way.
// CREATE, not MERGE: the documents of a batch are new or were just retracted, so none of
// their MENTIONS exists yet (MERGE would scan every relationship of a popular paper).
// A new paper's statements are all in the row, so it gets their fold (row.folded, the rule
// of refold_papers applied by the caller; null when there is one statement, or when the
// caller found the paper in the graph) and needs no refold.
UNWIND $rows AS row
OPTIONAL MATCH (known:Paper {paper_id: row.paper_id})
WITH row, known IS NOT NULL AS existed, coalesce(row.folded, head(row.mentions).properties) AS folded
MERGE (p:Paper {paper_id: row.paper_id})
ON CREATE SET p += folded, p.title_lower = left(toLower(folded.title), 4000)
WITH p, row, CASE WHEN existed THEN reduce(found = [], mention IN row.mentions | found +
                 [key IN keys(mention.properties) WHERE NOT coalesce(p[key] = mention.properties[key], false)
                  AND NOT key IN found]) ELSE [] END AS stale_keys
CALL (p, row) {
  UNWIND row.mentions AS mention
  MATCH (d:Document {doc_id: mention.doc_id})
  CREATE (d)-[m:MENTIONS]->(p)
  SET m = mention.properties, m.rank = mention.rank
}
WITH row, stale_keys WHERE size(stale_keys) > 0
RETURN row.paper_id AS paper_id, stale_keys;
