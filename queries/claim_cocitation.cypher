// name: claim_cocitation
// Works cited together within the same claim: for each pair, how many claims cite both and
// in how many papers. A cited source counts as the work it resolves to in the page's
// reference list (so one work cited from several pages is one work), or, when it resolves to
// none, as the source itself under the name the claim gives it.
//
// precomputed
// param paper: paper = null — only claims this paper makes (null: every paper's claims)
// param min_count: integer 1.. = 1 — only pairs cited together by at least this many claims
// param limit: integer 1.. = 100 — the most pairs to return
//
// column work_a — the first work: its title, or the source as cited when it resolves to no work
// column year_a — its year
// column arxiv_id_a — its arXiv id, or null
// column doi_a — its DOI, or null
// column paper_id_a — its key in the graph, or null for an unresolved source
// column work_b — the second work, likewise
// column year_b — its year
// column arxiv_id_b — its arXiv id, or null
// column doi_b — its DOI, or null
// column paper_id_b — its key in the graph, or null for an unresolved source
// column claims — how many claims cite both
// column papers — how many papers make those claims
//
// Neo4j Browser:
// :param paper => '2405.01127';
// :param min_count => 1;
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
MATCH (p)-[:MAKES]->(c:Claim)-[:CITES]->(s:Source)
OPTIONAL MATCH (s)-[:REFERS_TO]->(w:Paper)
// Each pair once, in key order (a Paper's paper_id, else the Source's source_id): a claim's
// works are collected in that order, so each pair of places i < j is one ordered pair, with
// no key compared per pair.
WITH p, c, coalesce(w, s) AS work
ORDER BY coalesce(work.paper_id, work.source_id)
WITH p, c, collect(DISTINCT work) AS works
UNWIND range(0, size(works) - 2) AS i
UNWIND range(i + 1, size(works) - 1) AS j
WITH p, c, works[i] AS x, works[j] AS y
WITH x, y, count(DISTINCT c) AS claims, count(DISTINCT p) AS papers
WHERE claims >= $min_count
RETURN coalesce(x.title, x.key, x.paper_id) AS work_a, x.year AS year_a, x.arxiv_id AS arxiv_id_a,
       x.doi AS doi_a, x.paper_id AS paper_id_a,
       coalesce(y.title, y.key, y.paper_id) AS work_b, y.year AS year_b, y.arxiv_id AS arxiv_id_b,
       y.doi AS doi_b, y.paper_id AS paper_id_b,
       claims, papers
ORDER BY claims DESC, papers DESC, work_a, work_b, coalesce(x.paper_id, x.source_id), coalesce(y.paper_id, y.source_id)
LIMIT $limit
