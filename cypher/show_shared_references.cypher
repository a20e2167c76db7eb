// name: show_shared_references
// Works both papers of each pair cite (`paperkg show` of a coupling query)
//
// param pairs: list — pairs of paper_ids ([a, b])
// param per_pair: integer — the most nodes to draw for each pair
UNWIND $pairs AS pair
CALL (pair) {
  MATCH (:Paper {paper_id: pair[0]})-[:CITES]->(x:Paper)<-[:CITES]-(:Paper {paper_id: pair[1]})
  RETURN x.paper_id AS id ORDER BY id LIMIT $per_pair
}
RETURN DISTINCT id
