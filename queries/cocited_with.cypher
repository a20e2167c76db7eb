// name: cocited_with
// Works most often cited together with a paper (co-citation): for each work, how many
// papers cite both, and the Salton score, cocitations / sqrt(citations of the paper ×
// citations of the work), which discounts works that are cited by everything. Citation
// counts are those in the graph, not the counts the documents state.
//
// param paper: paper — the paper whose co-cited works to find (arXiv id, DOI or paper_id)
// param min_count: integer 1.. = 1 — only works co-cited by at least this many papers
// param since: integer = null — only works published in or after this year (null: any)
// param until: integer = null — only works published in or before this year (null: any)
// param limit: integer 1.. = 100 — the most rows to return
//
// column title — the co-cited work's title
// column year — its publication year
// column arxiv_id — its arXiv id, or null
// column doi — its DOI, or null
// column paper_id — its key in the graph (usable as a `paper` parameter)
// column cocitations — how many papers cite both it and the paper
// column citations — how many papers in the graph cite it
// column salton — cocitations / sqrt(citations of the paper × citations of the work), 4 decimals
//
// Neo4j Browser:
// :param paper => '2103.07781';
// :param min_count => 1;
// :param since => null;
// :param until => null;
// :param limit => 100;

MATCH (a:Paper)
WHERE a.paper_id = $paper OR a.arxiv_id = $paper
MATCH (a)<-[:CITES]-(citing:Paper)-[:CITES]->(b:Paper)
WITH a, b, count(citing) AS cocitations  // one CITES per pair of papers, so one row per citing paper
WHERE cocitations >= $min_count AND b <> a
  AND ($since IS NULL OR b.year >= $since) AND ($until IS NULL OR b.year <= $until)
// Claims cite Sources, never Papers: every CITES into a Paper comes from a Paper, so the
// degree counts (read from the node, no expansion) are citation counts.
WITH b, cocitations, COUNT { (b)<-[:CITES]-() } AS citations, COUNT { (a)<-[:CITES]-() } AS paper_citations
RETURN b.title AS title, b.year AS year, b.arxiv_id AS arxiv_id, b.doi AS doi, b.paper_id AS paper_id,
       cocitations, citations, round(cocitations / sqrt(toFloat(paper_citations * citations)), 4) AS salton
ORDER BY cocitations DESC, salton DESC, title, paper_id
LIMIT $limit
