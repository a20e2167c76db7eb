// name: rdf_claims
// Every claim and the paper making it (the CiTO export)
MATCH (p:Paper)-[:MAKES]->(c:Claim) RETURN c.claim_id AS id, c.text AS text, p.paper_id AS paper
