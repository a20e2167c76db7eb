// name: papers_without_claim_counts
// Papers that make claims but have no stored claim counts (an offline import, a graph made by
// hand, or one from before the property existed); run with the schema, after the claims'
// status. Found from the claims, which are few beside the papers.
MATCH (p:Paper)-[:MAKES]->(:Claim)
WHERE p.claims_checked IS NULL
RETURN DISTINCT p.paper_id AS id;
