// name: change_state
// What a transaction's change set compares, read before it writes and again
// after. For the papers, CITES pairs, claims, checks and sources named (and, for the
// documents in doc_ids, everything they mention or assert, read before they are retracted):
// which papers exist (with their titles); which CITES exist, every CITES touching an
// `around` paper included (papers about to be merged or split); each claim's status, its
// paper and text; each check's verdict; the work each source refers to (every source
// referring to an `around` paper included). A claim's status is the stored one
// (claim_status.cypher, stored before the after-read); absent things are not returned.
//
// The names come in one map: Neo4j caches a plan by the size class of each list parameter,
// so seven lists whose sizes vary from one transaction to the next had this large statement
// planned again in most transactions; the lists in a map are not sized.
//
// param scope: map — lists of what is named: around (paper_ids of papers about to be merged or split), checks ([claim_id, source_id] pairs the transaction writes), cites ([citing, cited] paper_id pairs it writes), claim_ids, doc_ids (content hashes of documents about to be retracted), paper_ids, source_ids (of sources it writes)
CALL () {
  UNWIND $scope.doc_ids AS doc_id
  MATCH (:Document {doc_id: doc_id})-[:MENTIONS]->(n)
  RETURN collect(DISTINCT CASE WHEN n:Paper THEN n.paper_id END) AS doc_papers,
         collect(DISTINCT CASE WHEN n:Claim THEN n.claim_id END) AS doc_claims,
         collect(DISTINCT CASE WHEN n:Source THEN n.source_id END) AS doc_sources
}
// A document's CITES all touch its subject (write.batch_rows, redraw_relationships).
CALL () {
  UNWIND $scope.doc_ids AS doc_id
  MATCH (:Document {doc_id: doc_id})-[:MENTIONS {subject: true}]->(subject:Paper)-[r:CITES]-(:Paper)
  WHERE doc_id IN r.docs
  RETURN collect(DISTINCT [startNode(r).paper_id, endNode(r).paper_id]) AS doc_cites
}
CALL () {
  UNWIND $scope.doc_ids AS doc_id
  MATCH (:Document {doc_id: doc_id})-[:MENTIONS]->(c:Claim)-[r:CHECKED_AGAINST]->(s:Source)
  WHERE doc_id IN r.docs
  RETURN collect(DISTINCT [c.claim_id, s.source_id]) AS doc_checks
}
CALL (doc_papers) {
  UNWIND $scope.paper_ids + doc_papers AS paper_id
  WITH DISTINCT paper_id
  MATCH (p:Paper {paper_id: paper_id})
  RETURN collect([p.paper_id, coalesce(p.title, '')]) AS papers
}
// The documents' CITES were found by matching them: only the pairs named are looked up.
CALL () {
  UNWIND $scope.cites AS pair
  WITH DISTINCT pair
  MATCH (:Paper {paper_id: pair[0]})-[:CITES]->(:Paper {paper_id: pair[1]})
  RETURN collect(pair) AS listed_cites
}
CALL () {
  UNWIND $scope.around AS paper_id
  MATCH (:Paper {paper_id: paper_id})-[r:CITES]-(:Paper)
  RETURN collect(DISTINCT [startNode(r).paper_id, endNode(r).paper_id]) AS around_cites
}
CALL (doc_claims) {
  UNWIND $scope.claim_ids + doc_claims AS claim_id
  WITH DISTINCT claim_id
  MATCH (c:Claim {claim_id: claim_id})
  WITH c, c.status AS status
  OPTIONAL MATCH (p:Paper)-[:MAKES]->(c)
  WITH c, status, min(p.paper_id) AS paper_id
  RETURN collect([c.claim_id, status, coalesce(paper_id, ''), left(coalesce(c.text, ''), 200)]) AS claims
}
CALL (doc_checks) {
  UNWIND $scope.checks + doc_checks AS pair
  WITH DISTINCT pair
  MATCH (:Claim {claim_id: pair[0]})-[r:CHECKED_AGAINST]->(s:Source {source_id: pair[1]})
  RETURN collect([pair[0], pair[1], coalesce(r.verdict, ''), coalesce(s.key, '')]) AS checks
}
CALL (doc_sources) {
  CALL (doc_sources) {
    UNWIND $scope.source_ids + doc_sources AS source_id
    MATCH (s:Source {source_id: source_id})
    RETURN s
    UNION
    UNWIND $scope.around AS paper_id
    MATCH (s:Source)-[:REFERS_TO]->(:Paper {paper_id: paper_id})
    RETURN s
  }
  WITH DISTINCT s
  OPTIONAL MATCH (s)-[:REFERS_TO]->(w:Paper)
  WITH s, min(w.paper_id) AS paper_id
  RETURN collect([s.source_id, coalesce(paper_id, ''), coalesce(s.key, '')]) AS sources
}
RETURN papers, listed_cites + doc_cites + around_cites AS cites, claims, checks, sources;
