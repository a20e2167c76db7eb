// name: unsupported_claims
// Claims checked against at least one cited source where no checked source supports them.
// A claim also counted as checked against sources the page doesn't list (N of M says more
// checks than are shown) is left out: the page shows no verdict for those checks and counts
// them as supported, so the claim is `checked_unlisted`, not unsupported. Statuses are the
// ones `claim_support_summary` counts.
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
// column kind — Premise, Interpretation or null
// column basis — citation, none given, reasoning or null
// column section — the section the claim is in
// column substantial — whether the page marks the claim as substantial
// column sources_checked — N of the page's `N of M sources checked`
// column sources_total — M of the page's `N of M sources checked`
// column checks — the checks, by source: maps of source (as cited), work (its title, if resolved), confidence and rationale
//
// Neo4j Browser:
// :param paper => '2405.01127';
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
WHERE status = 'unsupported'
RETURN p.title AS title, p.year AS year, p.arxiv_id AS arxiv_id, p.doi AS doi,
       c.claim_id AS claim_id, c.text AS claim, c.kind AS kind, c.basis AS basis, c.section AS section,
       c.substantial AS substantial, c.sources_checked AS sources_checked, c.sources_total AS sources_total,
       COLLECT {
         MATCH (c)-[check:CHECKED_AGAINST]->(s:Source)
         OPTIONAL MATCH (s)-[:REFERS_TO]->(w:Paper)
         RETURN {source: s.key, work: w.title, confidence: check.confidence, rationale: check.rationale}
         ORDER BY s.key, s.source_id
       } AS checks
ORDER BY title, p.paper_id, section, claim, claim_id
LIMIT $limit
