// refold_papers: a paper's properties are what its documents say, the best-ranked document
// winning (a document's own subject, then list items, then references, then raw
// reference strings; ties by document id) and the others filling gaps. Run after every
// write or retraction that may change them, so a property only a withdrawn document
// stated disappears. Each property is written once, from its winning statement, and only
// when it changes (setting a property to its current value writes nothing). `title_lower`
// is derived, not stated: it backs find_papers' case-insensitive search with a text index,
// which refuses very long values, so it keeps a title's first 4,000 characters.
UNWIND $paper_ids AS paper_id
MATCH (p:Paper {paper_id: paper_id})
CALL (p) {
  MATCH (d:Document)-[m:MENTIONS]->(p)
  WITH m, d ORDER BY m.rank DESC, d.doc_id
  RETURN collect(properties(m)) AS stated
}
WITH p, stated, reduce(found = [], s IN stated | found + [key IN keys(s) WHERE key <> 'rank' AND NOT key IN found])
                AS stated_keys
FOREACH (key IN [key IN keys(p) WHERE NOT key IN ['paper_id', 'title_lower'] AND NOT key IN stated_keys] |
  REMOVE p[key])
FOREACH (key IN stated_keys | SET p[key] = head([s IN stated WHERE s[key] IS NOT NULL | s[key]]))
SET p.title_lower = left(toLower(p.title), 4000);
