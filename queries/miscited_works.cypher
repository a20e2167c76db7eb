// name: miscited_works
// Works most often checked and found not to support the claims that cite them, across all
// pages: per work, the checks that found no support and those that found support. A source
// counts as the work it resolves to in its page's reference list, or, when it resolves to
// none, as the source itself under the name the claim gives it. Works failing the most checks
// come first; among equals, those with fewer supporting checks.
//
// precomputed
// param min_count: integer 1.. = 1 — only works at least this many checks found not supporting
// param limit: integer 1.. = 100 — the most rows to return
//
// column work — the work's title, or the source as cited when it resolves to no work
// column year — its year
// column arxiv_id — its arXiv id, or null
// column doi — its DOI, or null
// column paper_id — its key in the graph, or null for an unresolved source
// column not_supported — how many checks found it does not support the citing claim
// column supported — how many checks found it supports the citing claim
// column claims — how many distinct claims it failed to support
// column papers — how many papers make those claims
//
// Neo4j Browser:
// :param min_count => 1;
// :param limit => 100;

MATCH (p:Paper)-[:MAKES]->(c:Claim)-[check:CHECKED_AGAINST]->(s:Source)
OPTIONAL MATCH (s)-[:REFERS_TO]->(w:Paper)
WITH coalesce(w, s) AS cited, p, c, check.verdict = 'not_supported' AS failed
WITH cited,
     count(CASE WHEN failed THEN 1 END) AS not_supported,
     count(CASE WHEN NOT failed THEN 1 END) AS supported,
     count(DISTINCT CASE WHEN failed THEN c END) AS claims,
     count(DISTINCT CASE WHEN failed THEN p END) AS papers
WHERE not_supported >= $min_count
RETURN coalesce(cited.title, cited.key, cited.paper_id) AS work, cited.year AS year, cited.arxiv_id AS arxiv_id,
       cited.doi AS doi, cited.paper_id AS paper_id, not_supported, supported, claims, papers
ORDER BY not_supported DESC, supported, work, coalesce(cited.paper_id, cited.source_id)
LIMIT $limit
