// refold_papers: a paper's properties are what its documents say, the best-ranked document
// winning (a document's own subject, then list items, then references, then raw
// reference strings; ties by document id) and the others filling gaps. Run after every
// write or retraction that may change them, so a property only a withdrawn document
// stated disappears. Each row names a paper and the properties to fold again: `keys` null
// folds all of them and removes what no statement names any more (after a retraction or a
// merge); a list folds only those (after a write that added statements, which removes
// nothing). The statements are collected as relationships, so only the values folded are
// read: a popular paper has thousands. Each property is written once, from its winning
// statement, and only when it changes (setting a property to its current value writes
// nothing). `title_lower` is derived, not stated: it backs find_papers' case-insensitive
// search with a text index, which refuses very long values, so it keeps a title's first
// 4,000 characters.
UNWIND $rows AS row
MATCH (p:Paper {paper_id: row.paper_id})
CALL (p) {
  MATCH (d:Document)-[m:MENTIONS]->(p)
  WITH m, d ORDER BY m.rank DESC, d.doc_id
  RETURN collect(m) AS stated
}
WITH p, row, stated,
     coalesce(row.keys, reduce(found = [], m IN stated | found + [key IN keys(m) WHERE key <> 'rank' AND NOT key IN found]))
       AS folded_keys
FOREACH (key IN [key IN keys(p) WHERE row.keys IS NULL AND NOT key IN ['paper_id', 'title_lower']
                  AND NOT key IN folded_keys] | REMOVE p[key])
FOREACH (key IN folded_keys | SET p[key] = head([m IN stated WHERE m[key] IS NOT NULL | m[key]]))
SET p.title_lower = left(toLower(p.title), 4000);
