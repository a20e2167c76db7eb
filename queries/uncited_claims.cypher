// name: uncited_claims
// Claims with no cited support: the page lists and counts no source for them, and either
// their basis is `none given` or `reasoning`, or a support note says the paper relies on
// them without support or states them as an assumption. (A claim whose basis is `none
// given` but which does cite sources is judged by those sources instead.)
//
// param paper: paper = null — only claims this paper makes (null: every paper's claims)
// param kind: string {Premise|Interpretation} = null — only claims of this kind (null: any)
// param substantial_only: boolean = false — only claims the page marks as substantial
// param limit: integer 1.. = 100 — the most rows to return
//
// column title — the title of the paper making the claim
// column year — its publication year
// column arxiv_id — its arXiv id, or null
// column doi — its DOI, or null
// column claim_id — the claim's key in the graph
// column claim — the claim's text
// column kind — Premise, Interpretation or null (claims known only from a support note)
// column basis — none given, reasoning, or null
// column section — the section the claim is in
// column substantial — whether the page marks the claim as substantial
// column support_note — relies_without_support, assumption or null
// column rests_on_assumption — whether the page says the claim rests on an assumption
// column flags — the page's flags on the claim
// column flag_reasons — the reasons given with the flags
//
// Neo4j Browser:
// :param paper => '2402.06618';
// :param kind => null;
// :param substantial_only => false;
// :param limit => 100;

// The paper, or every paper when $paper is null. The null guard sits on its own WITH so it
// is checked before the label scan, and a given paper costs one index lookup.
CALL () {
  MATCH (p:Paper)
  WHERE p.paper_id = $paper OR p.arxiv_id = $paper
  RETURN p
  UNION
  WITH $paper AS wanted
  WHERE wanted IS NULL
  MATCH (p:Paper)
  RETURN p
}
MATCH (p)-[:MAKES]->(c:Claim)
WHERE ($kind IS NULL OR c.kind = $kind) AND (NOT $substantial_only OR c.substantial)
// The claim's support status is stored when it is written (cypher/claim_status.cypher).
WITH p, c, c.status AS status
WHERE status = 'uncited'
RETURN p.title AS title, p.year AS year, p.arxiv_id AS arxiv_id, p.doi AS doi,
       c.claim_id AS claim_id, c.text AS claim, c.kind AS kind, c.basis AS basis, c.section AS section,
       c.substantial AS substantial, c.support_note AS support_note, c.rests_on_assumption AS rests_on_assumption,
       c.flags AS flags, c.flag_reasons AS flag_reasons
ORDER BY title, p.paper_id, section, claim, claim_id
LIMIT $limit
