// name: _resolve_paper
// Internal: the paper a user means by a `paper` parameter. The library passes what was
// written as `text` (tried as a paper_id) and, where the text reads as one, an arXiv id and a
// lowercase DOI (any of a work's DOIs); the first kind that matches wins, in that order. Each
// branch is an index lookup; a null key matches nothing.
//
// param text: string — the paper as the user wrote it, tried as a paper_id
// param arxiv_id: string = null — the arXiv id the text names, without version
// param doi: string = null — the DOI the text names, lowercase
//
// column paper_id — the matching paper's key
// column title — its title
//
// Neo4j Browser:
// :param text => '2402.06618';
// :param arxiv_id => '2402.06618';
// :param doi => null;

CALL () {
  MATCH (p:Paper {paper_id: $text})
  RETURN p, 1 AS rank
  UNION
  MATCH (p:Paper {arxiv_id: $arxiv_id})
  RETURN p, 2 AS rank
  UNION
  MATCH (p:Paper {doi: $doi})
  RETURN p, 3 AS rank
  UNION
  // A work keeps every DOI it was known by; the one in `doi` is the smallest.
  MATCH (:Evidence {doi: $doi})-[:OF]->(p:Paper)
  WHERE $doi IN p.dois
  RETURN p, 4 AS rank
}
RETURN p.paper_id AS paper_id, p.title AS title
ORDER BY rank, paper_id
LIMIT 1
