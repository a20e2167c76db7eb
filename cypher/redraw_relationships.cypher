// name: redraw_relationships
// After mentions moved between papers, every CITES, MAKES and REFERS_TO
// touching them is drawn again from the units of the documents that mention them (their
// subject, cited, citing and sources), with those documents as provenance. A paper that no
// document mentions any more is deleted.
//
// param paper_ids: list — paper_ids of the papers concerned
UNWIND $paper_ids AS paper_id
MATCH (p:Paper {paper_id: paper_id})
CALL (p) { MATCH (p)-[r:CITES]-(:Paper) DELETE r }
CALL (p) { MATCH (p)-[r:MAKES]->(:Claim) DELETE r }
CALL (p) { MATCH (:Source)-[r:REFERS_TO]->(p) DELETE r }
WITH collect(p) AS papers
UNWIND papers AS p
CALL (p) {
  MATCH (d:Document)-[m:MENTIONS]->(p)
  MATCH (d)-[:MENTIONS {subject: true}]->(subject:Paper)
  CALL (d, m, p, subject) {
    WITH * WHERE m.cited AND subject <> p
    MERGE (subject)-[r:CITES]->(p)
    SET r.docs = coalesce(r.docs, []) + [doc IN [d.doc_id] WHERE NOT doc IN coalesce(r.docs, [])]
  }
  CALL (d, m, p, subject) {
    WITH * WHERE m.citing AND subject <> p
    MERGE (p)-[r:CITES]->(subject)
    SET r.docs = coalesce(r.docs, []) + [doc IN [d.doc_id] WHERE NOT doc IN coalesce(r.docs, [])]
  }
  CALL (d, m, p) {
    WITH * WHERE m.subject
    MATCH (d)-[u:MENTIONS]->(q:Paper) WHERE q <> p AND u.cited
    MERGE (p)-[r:CITES]->(q)
    SET r.docs = coalesce(r.docs, []) + [doc IN [d.doc_id] WHERE NOT doc IN coalesce(r.docs, [])]
  }
  CALL (d, m, p) {
    WITH * WHERE m.subject
    MATCH (d)-[u:MENTIONS]->(q:Paper) WHERE q <> p AND u.citing
    MERGE (q)-[r:CITES]->(p)
    SET r.docs = coalesce(r.docs, []) + [doc IN [d.doc_id] WHERE NOT doc IN coalesce(r.docs, [])]
  }
  CALL (d, m, p) {
    WITH * WHERE m.subject
    MATCH (d)-[:MENTIONS]->(c:Claim)
    MERGE (p)-[r:MAKES]->(c)
    SET r.docs = coalesce(r.docs, []) + [doc IN [d.doc_id] WHERE NOT doc IN coalesce(r.docs, [])]
  }
  CALL (d, m, p) {
    UNWIND coalesce(m.sources, []) AS source_id
    MATCH (s:Source {source_id: source_id})
    MERGE (s)-[r:REFERS_TO]->(p)
    SET r.docs = coalesce(r.docs, []) + [doc IN [d.doc_id] WHERE NOT doc IN coalesce(r.docs, [])]
  }
}
WITH DISTINCT p WHERE NOT EXISTS { (p)<-[:MENTIONS]-(:Document) }
DETACH DELETE p;
