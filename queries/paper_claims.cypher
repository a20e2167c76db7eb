// name: paper_claims
// Every claim a paper makes, with its support status (as `claim_support_summary` defines
// the statuses) and the counts behind it: what the page says (N of M) and what the graph
// lists (cited sources, checks, supporting sources).
//
// param paper: paper — the paper whose claims to list (arXiv id, DOI or paper_id)
// param status: string {supported|checked_unlisted|unsupported|unverifiable|uncited|sources_missing} = null — only claims with this status (null: any)
// param kind: string {Premise|Interpretation} = null — only claims of this kind (null: any)
// param substantial_only: boolean = false — only claims the page marks as substantial
// param limit: integer 1.. = 1000 — the most rows to return
//
// column claim_id — the claim's key in the graph
// column claim — the claim's text
// column kind — Premise, Interpretation or null
// column basis — citation, none given, reasoning or null
// column section — the section the claim is in
// column substantial — whether the page marks the claim as substantial
// column status — supported, checked_unlisted, unsupported, unverifiable, uncited or sources_missing
// column sources_checked — N of the page's `N of M sources checked`, or null
// column sources_total — M, or null
// column cited — how many sources the claim lists
// column checked — how many listed sources were checked
// column supporting — how many checked sources support it
// column flags — the page's flags on the claim
// column support_note — relies_without_support, assumption or null
//
// Neo4j Browser:
// :param paper => '2310.05512';
// :param status => null;
// :param kind => null;
// :param substantial_only => false;
// :param limit => 1000;

MATCH (p:Paper)
WHERE p.paper_id = $paper OR p.arxiv_id = $paper
MATCH (p)-[:MAKES]->(c:Claim)
WHERE ($kind IS NULL OR c.kind = $kind) AND (NOT $substantial_only OR c.substantial)
// The claim's support status is stored when it is written (cypher/claim_status.cypher);
// the counts behind it are shown.
WITH p, c, c.status AS status,
     COUNT { (c)<-[:SUPPORTS]-() } AS supporting,
     COUNT { (c)-[:CHECKED_AGAINST]->() } AS checked,
     COUNT { (c)-[:CITES]->() } AS cited
WHERE $status IS NULL OR status = $status
RETURN c.claim_id AS claim_id, c.text AS claim, c.kind AS kind, c.basis AS basis, c.section AS section,
       c.substantial AS substantial, status, c.sources_checked AS sources_checked,
       c.sources_total AS sources_total, cited, checked, supporting, c.flags AS flags,
       c.support_note AS support_note
ORDER BY section, claim, claim_id
LIMIT $limit
