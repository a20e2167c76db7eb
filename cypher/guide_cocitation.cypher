// name: guide_cocitation
// The Co-citation slide's picture: papers citing what a paper cites
//
// param paper: string — the paper_id of the picture's paper
MATCH (p:Paper)
WHERE p.paper_id = $paper OR p.arxiv_id = $paper
MATCH path = (p)<-[:CITES]-(:Paper)-[:CITES]->(:Paper)
RETURN path
LIMIT 60
