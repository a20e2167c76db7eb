// name: show_claims
// The claims a picture draws, with their stored status
//
// param ids: list — the keys of the nodes to read
MATCH (p:Paper)-[:MAKES]->(c:Claim) WHERE c.claim_id IN $ids
RETURN c.claim_id AS id, c.text AS text, c.kind AS kind, c.section AS section, p.paper_id AS paper,
       c.status AS status
