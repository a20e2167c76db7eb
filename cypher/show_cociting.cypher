// show_cociting: papers citing both papers of each pair (`paperkg show` of a co-citation query)
UNWIND $pairs AS pair
CALL (pair) {
  MATCH (:Paper {paper_id: pair[0]})<-[:CITES]-(x:Paper)-[:CITES]->(:Paper {paper_id: pair[1]})
  RETURN x.paper_id AS id ORDER BY id LIMIT $per_pair
}
RETURN DISTINCT id
