// name: cocitation_pairs
// The strongest co-cited pairs in the whole graph: pairs of works that many papers cite
// together, with the Salton score, cocitations / sqrt(citations of one × citations of the
// other). Corpus-wide: its cost is the pairs among the works cited at least as often as the
// weakest pair it returns, so a larger `limit` costs more.
//
// precomputed
// param min_count: integer 1.. = 2 — only pairs co-cited by at least this many papers
// param limit: integer 1.. = 100 — the most pairs to return
//
// column title_a — the title of the pair's first work (the smaller paper_id)
// column year_a — its publication year
// column arxiv_id_a — its arXiv id, or null
// column doi_a — its DOI, or null
// column paper_id_a — its key in the graph
// column title_b — the title of the pair's second work
// column year_b — its publication year
// column arxiv_id_b — its arXiv id, or null
// column doi_b — its DOI, or null
// column paper_id_b — its key in the graph
// column cocitations — how many papers cite both
// column salton — cocitations / sqrt(citations of a × citations of b), 4 decimals
//
// Neo4j Browser:
// :param min_count => 2;
// :param limit => 100;

// Two passes, exact. A pair co-cited n times needs both works cited at least n times. The
// first pass counts the pairs among the most-cited works only (cheap: few works); the
// `limit`-th strongest of those is a floor that the answer's weakest pair reaches, so the
// second pass counts pairs among the works cited at least that often, not among all works.
MATCH (w:Paper)
WITH w, COUNT { (w)<-[:CITES]-() } AS cited
WHERE cited >= $min_count
ORDER BY cited DESC
LIMIT 2 * toInteger(sqrt(2 * $limit)) + 30
WITH collect(w) AS most_cited
CALL (most_cited) {
  UNWIND most_cited AS w
  MATCH (w)<-[:CITES]-(citing)
  WITH citing, collect(w) AS works
  UNWIND range(0, size(works) - 2) AS i
  UNWIND range(i + 1, size(works) - 1) AS j
  WITH works[i] AS x, works[j] AS y, count(*) AS cocitations
  ORDER BY cocitations DESC
  RETURN coalesce(collect(cocitations)[$limit - 1], 0) AS floor
}
WITH CASE WHEN floor > $min_count THEN floor ELSE $min_count END AS threshold
MATCH (w:Paper)
WHERE COUNT { (w)<-[:CITES]-() } >= threshold
WITH threshold, collect(w) AS cited
// Pairs are counted by their places in `cited`, as one integer (smaller × size(cited) + larger):
// grouping hundreds of thousands of rows on an integer is faster than on a pair of nodes.
CALL (threshold, cited) {
  UNWIND range(0, size(cited) - 1) AS k
  WITH threshold, size(cited) AS n, cited[k] AS w, k
  MATCH (w)<-[:CITES]-(citing)
  WITH threshold, n, citing, collect(k) AS places
  UNWIND range(0, size(places) - 2) AS i
  UNWIND range(i + 1, size(places) - 1) AS j
  WITH threshold, n, CASE WHEN places[i] < places[j] THEN places[i] * n + places[j]
                          ELSE places[j] * n + places[i] END AS pair, count(*) AS cocitations
  WHERE cocitations >= threshold
  RETURN cited[pair / n] AS x, cited[pair % n] AS y, cocitations
}
WITH CASE WHEN x.paper_id < y.paper_id THEN x ELSE y END AS a, CASE WHEN x.paper_id < y.paper_id THEN y ELSE x END AS b,
     cocitations
// Claims cite Sources, never Papers, so CITES degrees of a Paper are citation counts.
WITH a, b, cocitations,
     round(cocitations / sqrt(toFloat(COUNT { (a)<-[:CITES]-() } * COUNT { (b)<-[:CITES]-() })), 4) AS salton
RETURN a.title AS title_a, a.year AS year_a, a.arxiv_id AS arxiv_id_a, a.doi AS doi_a, a.paper_id AS paper_id_a,
       b.title AS title_b, b.year AS year_b, b.arxiv_id AS arxiv_id_b, b.doi AS doi_b, b.paper_id AS paper_id_b,
       cocitations, salton
ORDER BY cocitations DESC, salton DESC, title_a, title_b, paper_id_a, paper_id_b
LIMIT $limit
