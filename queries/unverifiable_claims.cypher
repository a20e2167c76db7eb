// name: unverifiable_claims
// Claims that cite sources none of which could be checked: no source was checked (N is 0
// or absent) although the claim lists sources or counts some (M > 0). A cited source can't
// be checked when it couldn't be matched to a record; matched sources beyond N were not
// checked either.
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
// column sources_total — M of the page's `N of M sources checked`, or null
// column sources — the sources the claim lists, as cited, sorted
// column matched — how many of them were matched to a record (and still not checked)
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
WHERE status = 'unverifiable'
RETURN p.title AS title, p.year AS year, p.arxiv_id AS arxiv_id, p.doi AS doi,
       c.claim_id AS claim_id, c.text AS claim, c.kind AS kind, c.basis AS basis, c.section AS section,
       c.substantial AS substantial, c.sources_total AS sources_total,
       COLLECT { MATCH (c)-[:CITES]->(s:Source) RETURN s.key ORDER BY s.key, s.source_id } AS sources,
       COUNT { (c)-[:CITES]->(s:Source) WHERE s.matched } AS matched
ORDER BY title, p.paper_id, section, claim, claim_id
LIMIT $limit
