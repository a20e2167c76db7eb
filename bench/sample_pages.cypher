// name: sample_pages
// The papers the benchmarks sample claim queries from: those making claims (their page was
// ingested), by arXiv id where they have one.
MATCH (p:Paper)-[:MAKES]->() WITH DISTINCT p RETURN coalesce(p.arxiv_id, p.paper_id) AS id ORDER BY id;
