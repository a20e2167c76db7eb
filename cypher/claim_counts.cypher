// name: claim_counts
// The one definition of a paper's claim counts, stored on the paper (indexed) beside its
// claims' status (cypher/claim_status.cypher, which runs first and returns the papers making
// the claims it stored): `claims_checked`, how many of the claims it makes are supported,
// checked_unlisted or unsupported (claim_support_summary's checked claims), and
// `claims_unsupported`, how many are unsupported. A paper that makes no claim has neither.
// at_risk_claims finds the works that may be weak from them. Stored for the given papers: those
// whose claims' status was stored, and those whose claims may have come, moved or gone (a
// write, a merge or split, a retraction, an offline import).
//
// param papers: list — paper_ids of the papers whose claim counts to store
UNWIND $papers AS paper_id
MATCH (p:Paper {paper_id: paper_id})
CALL (p) {
  OPTIONAL MATCH (p)-[:MAKES]->(c:Claim)
  RETURN count(c) AS made,
         count(CASE WHEN c.status IN ['supported', 'checked_unlisted', 'unsupported'] THEN 1 END) AS checked,
         count(CASE WHEN c.status = 'unsupported' THEN 1 END) AS unsupported
}
SET p.claims_checked = CASE WHEN made > 0 THEN checked END,
    p.claims_unsupported = CASE WHEN made > 0 THEN unsupported END;
