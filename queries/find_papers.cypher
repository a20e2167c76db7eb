// name: find_papers
// Papers whose title contains the given text (ignoring case), or whose arXiv id or one of
// whose DOIs is exactly it: the way to find the id to give other queries. Each of the three is an index
// lookup (a text index serves the title search), so no paper is scanned. Of a title longer
// than 4,000 characters, only its start is searched.
//
// param text: string — part of a title, or an arXiv id or DOI
// param limit: integer 1.. = 100 — the most rows to return
//
// column title — the paper's title
// column year — its publication year
// column arxiv_id — its arXiv id, or null
// column doi — its DOI, or null
// column paper_id — its key in the graph (usable as a `paper` parameter)
// column cited_by_in_graph — how many papers in the graph cite it
// column claims — how many claims it makes
//
// Neo4j Browser:
// :param text => 'root graph';
// :param limit => 100;

CALL () {
  MATCH (p:Paper) WHERE p.title_lower CONTAINS toLower($text) RETURN p
  UNION
  MATCH (p:Paper {arxiv_id: $text}) RETURN p
  UNION
  MATCH (p:Paper {doi: toLower($text)}) RETURN p
  UNION
  MATCH (:Evidence {doi: toLower($text)})-[:OF]->(p:Paper) WHERE toLower($text) IN p.dois RETURN p
}
// A common word matches thousands of titles: the first `limit` are chosen before their
// citations and claims are counted.
WITH p
ORDER BY p.title, p.year, p.paper_id
LIMIT $limit
RETURN p.title AS title, p.year AS year, p.arxiv_id AS arxiv_id, p.doi AS doi, p.paper_id AS paper_id,
       COUNT { (p)<-[:CITES]-() } AS cited_by_in_graph, COUNT { (p)-[:MAKES]->() } AS claims
ORDER BY title, year, paper_id
