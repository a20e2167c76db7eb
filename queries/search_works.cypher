// name: search_works
// Works found by words: in a work's title, in the other titles its mentions give it (each
// distinct one an Evidence node OF the work) or in the raw text of a reference to it (the
// full-text indexes work_text and evidence_title_text). The text is in Lucene's syntax, read
// as search_claims reads it (words, "phrases", AND, OR, NOT, prefix*; case, accents and
// hyphens do not matter; the analyzer is standard-folding, which leaves out English stop
// words). A work's score is its best match's relevance, rounded to 4 places; the best match
// comes first, ties in the order of the title and paper_id. `find_papers` finds a work by a
// piece of its title or by an identifier.
//
// param text: search — the words to look for, in Lucene's syntax
// param limit: integer 1.. = 50 — the most rows to return
//
// column score — how well the work matches (Lucene's relevance; higher is better)
// column title — the work's title
// column year — its publication year
// column arxiv_id — its arXiv id, or null
// column doi — its DOI, or null
// column paper_id — its key in the graph (usable as a `paper` parameter)
// column cited_by_in_graph — how many papers in the graph cite it
// column cited_as_source — how many claim sources refer to it
//
// Neo4j Browser:
// :param text => 'root graph*';
// :param limit => 50;

CALL () {
  CALL db.index.fulltext.queryNodes('work_text', $text) YIELD node, score
  RETURN node AS p, score
  UNION ALL
  CALL db.index.fulltext.queryNodes('evidence_title_text', $text) YIELD node, score
  MATCH (node)-[:OF]->(p:Paper)
  RETURN p, score
}
WITH p, round(max(score), 4) AS score
ORDER BY score DESC, p.title, p.paper_id
LIMIT $limit
RETURN score, p.title AS title, p.year AS year, p.arxiv_id AS arxiv_id, p.doi AS doi, p.paper_id AS paper_id,
       COUNT { (p)<-[:CITES]-(:Paper) } AS cited_by_in_graph, COUNT { (p)<-[:REFERS_TO]-(:Source) } AS cited_as_source
ORDER BY score DESC, title, paper_id
