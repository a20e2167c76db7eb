// name: rdf_claim_cites
// Every source a claim cites (the CiTO export)
MATCH (c:Claim)-[:CITES]->(s:Source) RETURN c.claim_id AS claim, s.source_id AS source
