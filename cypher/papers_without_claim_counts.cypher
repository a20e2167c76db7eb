// name: papers_without_claim_counts
// Papers that make claims but have no stored claim counts (an offline import, a graph made by
// hand, or one from before the property existed); run with the schema, after the claims'
// status. Found from the claims, which are few beside the papers: left to itself the planner
// starts from the papers, and takes several times as long on every run. One row holds them
// all, as in cypher/papers_without_title_lower.cypher.
MATCH (p:Paper)-[:MAKES]->(c:Claim)
USING SCAN c:Claim
WHERE p.claims_checked IS NULL
RETURN collect(DISTINCT p.paper_id) AS ids;
