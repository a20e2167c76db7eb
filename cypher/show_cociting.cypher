// name: show_cociting
// Papers citing both papers of each pair (`paperkg show` of a co-citation query)
//
// param pairs: list — pairs of paper_ids ([a, b])
// param per_pair: integer — the most nodes to draw for each pair
UNWIND $pairs AS pair
CALL (pair) {
  MATCH (:Paper {paper_id: pair[0]})<-[:CITES]-(x:Paper)-[:CITES]->(:Paper {paper_id: pair[1]})
  RETURN x.paper_id AS id ORDER BY id LIMIT $per_pair
}
RETURN DISTINCT id
