// name: show_claims_citing_both
// Claims citing both works of each pair (`paperkg show` of claim co-citation)
//
// param pairs: list — pairs of paper_ids ([a, b])
// param per_pair: integer — the most nodes to draw for each pair
UNWIND $pairs AS pair
CALL (pair) {
  MATCH (:Paper {paper_id: pair[0]})<-[:REFERS_TO]-(:Source)<-[:CITES]-(c:Claim)
        -[:CITES]->(:Source)-[:REFERS_TO]->(:Paper {paper_id: pair[1]})
  RETURN DISTINCT c.claim_id AS id ORDER BY id LIMIT $per_pair
}
RETURN DISTINCT id
