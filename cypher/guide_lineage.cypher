// name: guide_lineage
// The Lineage slide's picture: a paper's citations two steps out
//
// param paper: string — the paper_id of the picture's paper
MATCH path = (p:Paper)-[:CITES*1..2]->(:Paper)
WHERE p.paper_id = $paper OR p.arxiv_id = $paper
RETURN path
LIMIT 60
