// name: claims
// Claims with their support status, of one paper or of every paper: what the page says
// (N of M sources checked, basis, flags, support note), the sources each cites and what
// checking found. The status is the one `claim_support_summary` counts, stored on each
// claim when it is written (cypher/claim_status.cypher): `unsupported` (checked against
// listed sources, none of which supports it; a claim the page counts more checks for than
// it lists is `checked_unlisted` instead, since the page shows no verdict for those),
// `uncited` (no source listed or counted, and the basis is `none given` or `reasoning`, or a
// support note says the paper relies on it without support or as an assumption),
// `unverifiable` (it cites or counts sources, none of which could be checked), `supported`
// and `sources_missing`. `unsupported_claims`, `uncited_claims` and `unverifiable_claims`
// are this query with the status set.
//
// precomputed
// param status: string {supported|checked_unlisted|unsupported|unverifiable|uncited|sources_missing} = null — only claims with this status (null: any)
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
// column basis — citation, none given, reasoning or null
// column section — the section the claim is in
// column substantial — whether the page marks the claim as substantial
// column status — supported, checked_unlisted, unsupported, unverifiable, uncited or sources_missing
// column sources_checked — N of the page's `N of M sources checked`, or null
// column sources_total — M of the page's `N of M sources checked`, or null
// column sources — the sources the claim lists, as cited, sorted
// column matched — how many of them were matched to a record
// column checks — the checks, by source: maps of source (as cited), work (its title, if resolved), confidence and rationale
// column support_note — relies_without_support, assumption or null
// column rests_on_assumption — whether the page says the claim rests on an assumption
// column flags — the page's flags on the claim
// column flag_reasons — the reasons given with the flags
//
// Neo4j Browser:
// :param status => null;
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
WHERE ($status IS NULL OR c.status = $status) AND ($kind IS NULL OR c.kind = $kind)
  AND (NOT $substantial_only OR c.substantial)
// The rows are chosen first, so the sources and checks are read for those alone.
WITH p, c
ORDER BY p.title, p.paper_id, c.section, c.text, c.claim_id
LIMIT $limit
RETURN p.title AS title, p.year AS year, p.arxiv_id AS arxiv_id, p.doi AS doi,
       c.claim_id AS claim_id, c.text AS claim, c.kind AS kind, c.basis AS basis, c.section AS section,
       c.substantial AS substantial, c.status AS status, c.sources_checked AS sources_checked,
       c.sources_total AS sources_total,
       COLLECT { MATCH (c)-[:CITES]->(s:Source) RETURN s.key ORDER BY s.key, s.source_id } AS sources,
       COUNT { (c)-[:CITES]->(s:Source) WHERE s.matched } AS matched,
       COLLECT {
         MATCH (c)-[check:CHECKED_AGAINST]->(s:Source)
         OPTIONAL MATCH (s)-[:REFERS_TO]->(w:Paper)
         RETURN {source: s.key, work: w.title, confidence: check.confidence, rationale: check.rationale}
         ORDER BY s.key, s.source_id
       } AS checks,
       c.support_note AS support_note, c.rests_on_assumption AS rests_on_assumption, c.flags AS flags,
       c.flag_reasons AS flag_reasons
ORDER BY title, p.paper_id, section, claim, claim_id
