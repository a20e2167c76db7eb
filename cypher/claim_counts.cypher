// name: claim_counts
// The one definition of a paper's claim counts, stored on the paper (indexed) beside its
// claims' status (cypher/claim_status.cypher, which runs first): `claims_checked`, how many of
// the claims it makes are supported, checked_unlisted or unsupported (claim_support_summary's
// checked claims), and `claims_unsupported`, how many are unsupported. A paper that makes no
// claim has neither. at_risk_claims finds the works that may be weak from them. Stored for the
// papers making the given claims and for the given papers, whose claims may have come, moved
// or gone (a write, a merge or split, a retraction, an offline import).
//
// Each branch seeks its claims or papers by their key (the hints): planned from statistics, the
// claims' branch may instead read every paper's MAKES and join, many times the work of a seek
// per claim, depending on when the graph was last sampled.
//
// param claims: list — claim_ids of the claims whose status was stored
// param papers: list — paper_ids of further papers whose claims may have changed
CALL () {
  UNWIND $claims AS claim_id
  MATCH (p:Paper)-[:MAKES]->(c:Claim {claim_id: claim_id})
  USING INDEX c:Claim(claim_id)
  RETURN p
  UNION
  UNWIND $papers AS paper_id
  MATCH (p:Paper {paper_id: paper_id})
  USING INDEX p:Paper(paper_id)
  RETURN p
}
CALL (p) {
  OPTIONAL MATCH (p)-[:MAKES]->(c:Claim)
  RETURN count(c) AS made,
         count(CASE WHEN c.status IN ['supported', 'checked_unlisted', 'unsupported'] THEN 1 END) AS checked,
         count(CASE WHEN c.status = 'unsupported' THEN 1 END) AS unsupported
}
SET p.claims_checked = CASE WHEN made > 0 THEN checked END,
    p.claims_unsupported = CASE WHEN made > 0 THEN unsupported END;
