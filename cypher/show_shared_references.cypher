// show_shared_references: works both papers of each pair cite (`paperkg show` of a coupling query)
UNWIND $pairs AS pair
CALL (pair) {
  MATCH (:Paper {paper_id: pair[0]})-[:CITES]->(x:Paper)<-[:CITES]-(:Paper {paper_id: pair[1]})
  RETURN x.paper_id AS id ORDER BY id LIMIT $per_pair
}
RETURN DISTINCT id
