// refold_papers: a paper's properties are what its documents say, the best-ranked document
// winning (a document's own subject, then list items, then references, then raw
// reference strings; ties by document id) and the others filling gaps. Run after every
// write or retraction that may change them, so a property only a withdrawn document
// stated disappears. Each row names a paper and the properties to fold again: `keys` null
// folds all of them and removes what no statement names any more (after a retraction or a
// merge); a list folds only those (after a write that added statements, which removes
// nothing). Each property is taken from its best statement among those that state it: a
// popular paper has thousands of statements, and most properties only a few of them state.
// Setting a property to its current value writes nothing. `title_lower` is derived, not
// stated: it backs find_papers' case-insensitive search with a text index, which refuses
// very long values, so it keeps a title's first 4,000 characters.
UNWIND $rows AS row
MATCH (p:Paper {paper_id: row.paper_id})
CALL (p, row) {
  WITH p, row WHERE row.keys IS NULL
  MATCH (:Document)-[m:MENTIONS]->(p)
  UNWIND keys(m) AS key
  WITH DISTINCT key WHERE key <> 'rank'
  RETURN collect(key) AS stated_keys
}
WITH p, coalesce(row.keys, stated_keys) AS folded_keys, row.keys IS NULL AS whole
FOREACH (key IN [key IN keys(p) WHERE whole AND NOT key IN ['paper_id', 'title_lower'] AND NOT key IN folded_keys] |
  REMOVE p[key])
WITH p, folded_keys
CALL (p, folded_keys) {
  UNWIND folded_keys AS key
  CALL (p, key) {
    MATCH (d:Document)-[m:MENTIONS]->(p)
    WHERE m[key] IS NOT NULL
    WITH m[key] AS value ORDER BY m.rank DESC, d.doc_id LIMIT 1
    SET p[key] = value
  }
}
SET p.title_lower = left(toLower(p.title), 4000);
