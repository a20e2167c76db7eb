// name: retract_document
// Withdraw everything a document asserted, and the document.
// Every relationship the document asserted joins two nodes it MENTIONS, so walking those
// nodes finds them all. A relationship or node no other document asserts disappears, and so
// does evidence no other document states. Returns the papers that remain (to refold and
// resolve again), the evidence that went ([arxiv_id, doi, title_norm, year, fallback]) and
// the claims that remain (their status is stored again).
//
// param doc_id: string — the content hash of the document to withdraw
OPTIONAL MATCH (d:Document {doc_id: $doc_id})-[mention:MENTIONS]->(n)
WITH collect(mention) AS mentions, collect(DISTINCT n) AS nodes
WITH mentions, nodes, [m IN mentions WHERE m.key IS NOT NULL | m.key] AS units
CALL (nodes) {
  UNWIND nodes AS n
  MATCH (n)-[r]-()
  WHERE $doc_id IN r.docs
  SET r.docs = [doc IN r.docs WHERE doc <> $doc_id]
  WITH r WHERE size(r.docs) = 0
  DELETE r
}
FOREACH (m IN mentions | DELETE m)
WITH nodes, units
CALL (units) {
  UNWIND units AS key
  WITH DISTINCT key WHERE NOT EXISTS { ()-[:MENTIONS {key: key}]->() }
  MATCH (e:Evidence {key: key})
  WITH e, [e.arxiv_id, e.doi, e.title_norm, e.year, e.fallback] AS fields
  DETACH DELETE e
  RETURN collect(fields) AS gone
}
WITH nodes, gone, [n IN nodes WHERE n:Paper AND EXISTS { (n)<-[:MENTIONS]-(:Document) } | n.paper_id] AS paper_ids,
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
RETURN paper_ids, gone, claim_ids;
