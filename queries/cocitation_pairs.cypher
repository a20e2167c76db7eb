// name: cocitation_pairs
// The strongest co-cited pairs in the whole graph: pairs of works that many papers cite
// together, with the Salton score, cocitations / sqrt(citations of one × citations of the
// other). Corpus-wide: its cost grows with the sum over citing papers of their references
// squared, so raise `min_count` on large graphs.
//
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

// A work cited fewer than min_count times can't be in a pair co-cited min_count times.
MATCH (a:Paper)
WHERE COUNT { (a)<-[:CITES]-() } >= $min_count
// One aggregation per work keeps memory bounded. Each pair is kept once, from the side with
// the smaller paper_id; that comparison reads a property, so it runs in its own WITH, after
// min_count has dropped most pairs (in one WHERE the planner may compare every pair first).
CALL (a) {
  MATCH (a)<-[:CITES]-()-[:CITES]->(b)
  WITH b, count(*) AS cocitations
  WHERE cocitations >= $min_count
  WITH b, cocitations
  WHERE a.paper_id < b.paper_id
  RETURN b, cocitations
}
// Claims cite Sources, never Papers, so CITES degrees of a Paper are citation counts.
WITH a, b, cocitations,
     round(cocitations / sqrt(toFloat(COUNT { (a)<-[:CITES]-() } * COUNT { (b)<-[:CITES]-() })), 4) AS salton
RETURN a.title AS title_a, a.year AS year_a, a.arxiv_id AS arxiv_id_a, a.doi AS doi_a, a.paper_id AS paper_id_a,
       b.title AS title_b, b.year AS year_b, b.arxiv_id AS arxiv_id_b, b.doi AS doi_b, b.paper_id AS paper_id_b,
       cocitations, salton
ORDER BY cocitations DESC, salton DESC, title_a, title_b, paper_id_a, paper_id_b
LIMIT $limit
