// name: claims_without_status
// Claims written without a stored status (an offline import, a graph made by hand, or one
// from before the property existed); run with the schema. One row holds them all, as in
// cypher/papers_without_title_lower.cypher, those of one paper together: storing a status
// counts its paper's claims again (cypher/claim_counts.cypher), so a paper whose claims were
// spread over every transaction would be counted in each of them.
MATCH (c:Claim) WHERE c.status IS NULL
OPTIONAL MATCH (p:Paper)-[:MAKES]->(c)
WITH c, min(p.paper_id) AS paper
ORDER BY paper, c.claim_id
RETURN collect(c.claim_id) AS ids;
