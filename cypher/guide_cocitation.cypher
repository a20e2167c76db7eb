// guide_cocitation: the Co-citation slide's picture: papers citing what a paper cites
MATCH (p:Paper)
WHERE p.paper_id = $paper OR p.arxiv_id = $paper
MATCH path = (p)<-[:CITES]-(:Paper)-[:CITES]->(:Paper)
RETURN path
LIMIT 60
