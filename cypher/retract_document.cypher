// retract_document: withdraw everything a document's previous version asserted.
// Every relationship the document asserted joins two nodes it MENTIONS, so walking those
// nodes finds them all. A relationship or node no other document asserts disappears; the
// papers that remain are returned, for refold_papers.
MATCH (d:Document {doc_id: $doc_id})-[mention:MENTIONS]->(n)
CALL (n) {
  MATCH (n)-[r]-()
  WHERE $doc_id IN r.docs
  SET r.docs = [doc IN r.docs WHERE doc <> $doc_id]
  WITH r WHERE size(r.docs) = 0
  DELETE r
}
DELETE mention
WITH DISTINCT n
CALL (n) {
  WITH n WHERE NOT EXISTS { (n)<-[:MENTIONS]-(:Document) }
  DETACH DELETE n
}
WITH n WHERE n:Paper AND EXISTS { (n)<-[:MENTIONS]-(:Document) }
RETURN n.paper_id AS paper_id;
