// name: sample_papers
// The papers the benchmarks sample per-paper queries from: those with an arXiv id (as a
// person would name them), in arXiv id order.
MATCH (p:Paper) WHERE p.arxiv_id IS NOT NULL RETURN p.arxiv_id AS id ORDER BY id;
