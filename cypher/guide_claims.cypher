// guide_claims: the Unsupported claims slide's picture: claims, checks and support
MATCH (p:Paper)
WHERE p.paper_id = $paper OR p.arxiv_id = $paper
MATCH path = (p)-[:MAKES]->(c:Claim)-[:CHECKED_AGAINST]->(s:Source)
OPTIONAL MATCH support = (s)-[:SUPPORTS]->(c)
OPTIONAL MATCH matched = (s)-[:REFERS_TO]->(:Paper)
RETURN path, support, matched
LIMIT 100
