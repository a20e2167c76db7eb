// name: paper_overview
// One paper at a glance: what the documents state about it (title, venue, authors, counts,
// first posted date, abstract) and what the graph holds for it (citations and references
// between papers in the graph, claims it makes).
//
// param paper: paper — the paper (arXiv id, DOI or paper_id)
//
// column title — the paper's title
// column year — its publication year
// column venue — its venue, or null
// column authors — its authors
// column arxiv_id — its arXiv id, or null
// column doi — its DOI, or null
// column paper_id — its key in the graph
// column first_posted — the date it was first posted on arXiv, or null
// column cited_by_count — how many papers cite it, as a document states
// column reference_count — how many references it has, as a document states
// column cited_by_in_graph — how many papers in the graph cite it
// column references_in_graph — how many papers in the graph it cites
// column claims — how many claims it makes
// column abstract — its abstract, or null
//
// Neo4j Browser:
// :param paper => '2402.06618';

MATCH (p:Paper)
WHERE p.paper_id = $paper OR p.arxiv_id = $paper
// A Paper's CITES lead to and come from Papers only (claims cite Sources).
RETURN p.title AS title, p.year AS year, p.venue AS venue, p.authors AS authors, p.arxiv_id AS arxiv_id,
       p.doi AS doi, p.paper_id AS paper_id, p.first_posted AS first_posted,
       p.cited_by_count AS cited_by_count, p.reference_count AS reference_count,
       COUNT { (p)<-[:CITES]-() } AS cited_by_in_graph, COUNT { (p)-[:CITES]->() } AS references_in_graph,
       COUNT { (p)-[:MAKES]->() } AS claims, p.abstract AS abstract
ORDER BY paper_id
