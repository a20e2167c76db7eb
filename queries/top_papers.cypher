// name: top_papers
// The most influential papers of the corpus, or of a year range, by PageRank over the citation
// graph, with their citation counts in the graph and their clusters. The ranks are those the
// last `paperkg analyze` wrote (papers ingested since have none until it runs again).
//
// param since: integer = null — only papers published in or after this year (null: any)
// param until: integer = null — only papers published in or before this year (null: any)
// param limit: integer 1.. = 25 — the most rows to return
//
// column title — the paper's title
// column year — its publication year
// column arxiv_id — its arXiv id, or null
// column doi — its DOI, or null
// column paper_id — its key in the graph (usable as a `paper` parameter)
// column pagerank — its PageRank (the ranks of all papers sum to 1), 6 decimals
// column citations — how many papers in the graph cite it
// column cocitation_cluster — the label of its co-citation cluster, or null
//
// Neo4j Browser:
// :param since => null;
// :param until => null;
// :param limit => 25;

// The range index on pagerank gives the order: the scan stops after $limit papers in range.
MATCH (p:Paper)
WHERE p.pagerank IS NOT NULL
  AND ($since IS NULL OR p.year >= $since) AND ($until IS NULL OR p.year <= $until)
WITH p ORDER BY p.pagerank DESC, p.paper_id LIMIT $limit
OPTIONAL MATCH (c:Cluster {cluster_id: 'cocitation:' + toString(p.cocitation_cluster)})
RETURN p.title AS title, p.year AS year, p.arxiv_id AS arxiv_id, p.doi AS doi, p.paper_id AS paper_id,
       round(p.pagerank, 6) AS pagerank, p.citations AS citations, c.label AS cocitation_cluster
ORDER BY p.pagerank DESC, paper_id
