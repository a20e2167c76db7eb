// name: claims_without_status
// Claims written without a stored status (an offline import, a graph
// made by hand, or one from before the property existed); run with the schema.
MATCH (c:Claim) WHERE c.status IS NULL RETURN c.claim_id AS id;
