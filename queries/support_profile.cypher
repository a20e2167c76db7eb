// name: support_profile
// How a work is used as support: the claims that cite it, and what checking them against it
// found, by verdict (`supported`, `not_supported`, or `not_checked` when a claim cites it but
// the page shows no check against it) and by the check's confidence. A claim cites the work
// when one of its sources resolves to it in the citing page's reference list.
//
// param paper: paper — the cited work (arXiv id, DOI or paper_id)
// param limit: integer 1.. = 100 — the most rows to return
//
// column verdict — supported, not_supported or not_checked
// column confidence — the checks' confidence (null: none given, or not checked)
// column claims — how many claims cite the work with this verdict and confidence
// column citing_papers — how many papers make those claims
// column total_claims — how many claims cite the work at all (the same on every row)
//
// Neo4j Browser:
// :param paper => '2402.06618';
// :param limit => 100;

MATCH (w:Paper)
WHERE w.paper_id = $paper OR w.arxiv_id = $paper
MATCH (w)<-[:REFERS_TO]-(s:Source)<-[:CITES]-(c:Claim)<-[:MAKES]-(p:Paper)
OPTIONAL MATCH (c)-[check:CHECKED_AGAINST]->(s)
WITH w, c, p, coalesce(check.verdict, 'not_checked') AS verdict, check.confidence AS confidence
WITH w, verdict, confidence, count(DISTINCT c) AS claims, count(DISTINCT p) AS citing_papers
RETURN verdict, confidence, claims, citing_papers,
       COUNT { MATCH (w)<-[:REFERS_TO]-(:Source)<-[:CITES]-(k:Claim) RETURN DISTINCT k } AS total_claims
ORDER BY CASE verdict WHEN 'supported' THEN 0 WHEN 'not_supported' THEN 1 ELSE 2 END, confidence DESC
LIMIT $limit
