// name: rdf_supports
// Every source found to support a claim (the CiTO export)
MATCH (s:Source)-[:SUPPORTS]->(c:Claim) RETURN s.source_id AS source, c.claim_id AS claim
