// name: guide_claims
// The Unsupported claims slide's picture: claims, checks and support
//
// param paper: string — the paper_id of the picture's paper
MATCH (p:Paper)
WHERE p.paper_id = $paper OR p.arxiv_id = $paper
MATCH path = (p)-[:MAKES]->(c:Claim)-[:CHECKED_AGAINST]->(s:Source)
OPTIONAL MATCH support = (s)-[:SUPPORTS]->(c)
OPTIONAL MATCH matched = (s)-[:REFERS_TO]->(:Paper)
RETURN path, support, matched
LIMIT 100
