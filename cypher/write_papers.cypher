// write_papers: one row per work, with what each document of the batch says about it. A
// document's statement is kept on its MENTIONS relationship, one per distinct evidence; the node's properties are
// folded from those by refold_papers' rule (here, in refold_contested, or in refold_papers
// after a retraction or merge), so they never depend on the order of ingestion.
// Each row carries its statements' fold (row.folded, the rule of refold_papers applied by the
// caller; null when there is one statement, which is its own fold). A new paper gets it whole.
// An existing paper gets from it the properties it lacks: no earlier statement states those,
// so the batch's fold of them is the paper's (a card arriving after the references that
// created its paper adds its abstract, dates and counts without reading those statements).
// Returns the papers that need refold_contested, with the properties to settle: those some
// statement of the batch gives another value than the node has. Where every stated value is
// already there, the fold cannot change (whichever mention wins a property, it has that
// value), so a popular paper is not refolded each time another document names it the same way.
// A lacking title is left to refold_contested too, which also derives title_lower from it.
// CREATE, not MERGE: the documents of a batch are new or were just retracted, so none of
// their MENTIONS exists yet (MERGE would scan every relationship of a popular paper).
UNWIND $rows AS row
OPTIONAL MATCH (known:Paper {paper_id: row.paper_id})
WITH row, known IS NOT NULL AS existed, coalesce(row.folded, head(row.mentions).properties) AS folded
MERGE (p:Paper {paper_id: row.paper_id})
ON CREATE SET p += folded, p.title_lower = left(toLower(folded.title), 4000)
WITH p, row, folded, CASE WHEN existed THEN [key IN keys(folded) WHERE p[key] IS NULL AND key <> 'title']
                    ELSE [] END AS lacking, existed
WITH p, row, folded, lacking, CASE WHEN existed THEN reduce(found = [], mention IN row.mentions | found +
                 [key IN keys(mention.properties) WHERE NOT coalesce(p[key] = mention.properties[key], false)
                  AND NOT key IN found AND NOT key IN lacking]) ELSE [] END AS contested_keys
FOREACH (key IN lacking | SET p[key] = folded[key])
WITH p, row, contested_keys
CALL (p, row) {
  UNWIND row.mentions AS mention
  MATCH (d:Document {doc_id: mention.doc_id})
  CREATE (d)-[m:MENTIONS]->(p)
  SET m = mention.properties, m += mention.unit, m.rank = mention.rank
}
WITH row, contested_keys WHERE size(contested_keys) > 0
RETURN row.paper_id AS paper_id, contested_keys;
