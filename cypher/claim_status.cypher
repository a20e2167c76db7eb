// name: claim_status
// The one definition of a claim's support status, stored on the claim (indexed)
// by every path that writes or withdraws what a claim rests on: a batch, a retraction, the
// admin import. SUPPORTS, CHECKED_AGAINST and a claim's CITES only ever join claims and
// sources, so degree counts suffice. The statuses, in order of precedence:
//   supported         a checked source supports it
//   checked_unlisted  the page counts more checks (N of M) than it lists: it shows no verdict
//   unsupported       checked against listed sources, none of which supports it
//   unverifiable      cites or counts sources, none of them checked
//   uncited           no source, and the basis is `none given`/`reasoning` or a support note says so
//   sources_missing   none of the above
//
// Returns the papers making those claims, whose claim counts follow (cypher/claim_counts.cypher),
// each paper once for all the statements that stored its claims' status.
//
// param claims: list — claim_ids of the claims whose status to store
UNWIND $claims AS claim_id
MATCH (c:Claim {claim_id: claim_id})
WITH c,
     COUNT { (c)<-[:SUPPORTS]-() } AS supporting,
     COUNT { (c)-[:CHECKED_AGAINST]->() } AS checked,
     COUNT { (c)-[:CITES]->() } AS cited
SET c.status = CASE
  WHEN supporting > 0 THEN 'supported'
  WHEN coalesce(c.sources_checked, 0) > checked THEN 'checked_unlisted'
  WHEN checked > 0 THEN 'unsupported'
  WHEN cited > 0 OR coalesce(c.sources_total, 0) > 0 THEN 'unverifiable'
  WHEN c.basis IN ['none given', 'reasoning'] OR c.support_note IS NOT NULL THEN 'uncited'
  ELSE 'sources_missing'
END
WITH c
MATCH (p:Paper)-[:MAKES]->(c)
RETURN DISTINCT p.paper_id AS paper_id;
