// name: show_claim_sources
// The sources those claims cite or were checked against
//
// param ids: list — the keys of the nodes to read
MATCH (c:Claim)-[:CITES|CHECKED_AGAINST]->(s:Source) WHERE c.claim_id IN $ids
WITH DISTINCT c, s
OPTIONAL MATCH (c)-[check:CHECKED_AGAINST]->(s)
OPTIONAL MATCH (w:Paper)<-[:REFERS_TO]-(s)
RETURN c.claim_id AS claim, s.source_id AS id, s.key AS key, s.matched AS matched,
       EXISTS { (c)-[:CITES]->(s) } AS cites, check.verdict AS verdict, check.confidence AS confidence,
       EXISTS { (s)-[:SUPPORTS]->(c) } AS supports, w.paper_id AS work
