// refold_papers: a paper's properties are what its documents say, the best-ranked document
// winning (a document's own subject, then list items, then references, then raw
// reference strings; ties by document id) and the others filling gaps. Run after every
// write or retraction, so a property only a withdrawn document stated disappears.
UNWIND $paper_ids AS paper_id
MATCH (p:Paper {paper_id: paper_id})
CALL (p) {
  MATCH (d:Document)-[m:MENTIONS]->(p)
  WITH m ORDER BY m.rank, d.doc_id DESC
  WITH collect(m) AS mentions
  SET p = {paper_id: p.paper_id}
  FOREACH (m IN mentions | SET p += properties(m))
  REMOVE p.rank
};
