// name: retract_document
// Withdraw everything a document asserted, and the document.
// Every relationship the document asserted joins two nodes it MENTIONS: a claim or a source
// (each of one page, with few relationships) and another node, or its subject and another
// paper, by CITES (paperkg/load/transactions.py `batch_rows`, redraw_relationships). So only the
// claims' and sources' relationships and the subject's CITES are read, not those of every
// paper it mentions (a popular paper has thousands). A relationship or node no other
// document asserts disappears, and so does evidence no other document states. Returns the
// papers that remain (their derived properties are stored again), the statements withdrawn
// from them ([paper_id, precedence, keys], to refold what they may have decided), the
// evidence that went ([arxiv_id, doi, title_norm, year, fallback]: its works are resolved
// again) and the claims that remain (their status is stored again).
//
// param doc_id: string — the content hash of the document to withdraw
OPTIONAL MATCH (d:Document {doc_id: $doc_id})-[mention:MENTIONS]->(n)
WITH collect(mention) AS mentions, collect(DISTINCT n) AS nodes
WITH mentions, nodes, [m IN mentions WHERE m.key IS NOT NULL | m.key] AS units,
     [m IN mentions WHERE m.key IS NOT NULL | [endNode(m).paper_id, m.precedence, keys(m)]] AS statements,
     [m IN mentions WHERE m.subject | endNode(m)] AS subjects
CALL (nodes, subjects) {
  CALL (nodes, subjects) {
    UNWIND nodes AS n
    WITH n WHERE NOT n:Paper
    MATCH (n)-[r]-()
    RETURN r
    UNION
    UNWIND subjects AS subject
    MATCH (subject)-[r:CITES]-(:Paper)
    RETURN r
  }
  WITH r WHERE $doc_id IN r.docs
  SET r.docs = [doc IN r.docs WHERE doc <> $doc_id]
  WITH r WHERE size(r.docs) = 0
  DELETE r
}
FOREACH (m IN mentions | DELETE m)
WITH nodes, units, statements
CALL (units) {
  UNWIND units AS key
  WITH DISTINCT key WHERE NOT EXISTS { ()-[:MENTIONS {key: key}]->() }
  MATCH (e:Evidence {key: key})
  WITH e, [e.arxiv_id, e.doi, e.title_norm, e.year, e.fallback] AS fields
  DETACH DELETE e
  RETURN collect(fields) AS gone
}
WITH nodes, gone, statements, [n IN nodes WHERE n:Paper AND EXISTS { (n)<-[:MENTIONS]-(:Document) } | n.paper_id] AS paper_ids,
     [n IN nodes WHERE n:Claim AND EXISTS { (n)<-[:MENTIONS]-(:Document) } | n.claim_id] AS claim_ids
CALL (nodes) {
  UNWIND nodes AS n
  WITH n WHERE NOT EXISTS { (n)<-[:MENTIONS]-(:Document) }
  DETACH DELETE n
}
CALL () {
  MATCH (d:Document {doc_id: $doc_id})
  DETACH DELETE d
}
RETURN paper_ids, [s IN statements WHERE s[0] IN paper_ids] AS withdrawn, gone, claim_ids;
