// name: claims_citing
// Claims anywhere in the graph that cite a given work, with what checking the source found:
// `supported` or `not_supported` when it was checked, `not_checked` when it was matched to a
// record but not checked, `unmatched` when it couldn't be matched (so couldn't be checked).
// A claim cites the work when one of its sources resolves to it in the citing page's
// reference list.
//
// param paper: paper — the cited work (arXiv id, DOI or paper_id)
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
// column section — the section the claim is in
// column substantial — whether the page marks the claim as substantial
// column cited_as — the source as the claim names it
// column verdict — supported, not_supported, not_checked or unmatched
// column confidence — the check's confidence, or null
// column ambiguous — whether the page leaves open which source this check belongs to, or null
// column rationale — the check's rationale, or null
//
// Neo4j Browser:
// :param paper => '2107.11820';
// :param kind => null;
// :param substantial_only => false;
// :param limit => 100;

MATCH (w:Paper)
WHERE w.paper_id = $paper OR w.arxiv_id = $paper
MATCH (w)<-[:REFERS_TO]-(s:Source)<-[:CITES]-(c:Claim)<-[:MAKES]-(p:Paper)
WHERE ($kind IS NULL OR c.kind = $kind) AND (NOT $substantial_only OR c.substantial)
OPTIONAL MATCH (c)-[check:CHECKED_AGAINST]->(s)
RETURN p.title AS title, p.year AS year, p.arxiv_id AS arxiv_id, p.doi AS doi,
       c.claim_id AS claim_id, c.text AS claim, c.kind AS kind, c.section AS section,
       c.substantial AS substantial, s.key AS cited_as,
       coalesce(check.verdict, CASE WHEN s.matched THEN 'not_checked' ELSE 'unmatched' END) AS verdict,
       check.confidence AS confidence, check.ambiguous AS ambiguous, check.rationale AS rationale
ORDER BY title, p.paper_id, section, claim, claim_id, cited_as, s.source_id
LIMIT $limit
