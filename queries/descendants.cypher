// name: descendants
// What builds on a paper: every work that cites it, directly or through works that cite it,
// up to `depth` citation steps, each with the fewest steps that reach it. Closest first.
//
// param paper: paper — the paper whose descendants to find (arXiv id, DOI or paper_id)
// param depth: integer 1..5 = 2 — how many citation steps to follow
// param since: integer = null — only works published in or after this year (null: any)
// param until: integer = null — only works published in or before this year (null: any)
// param limit: integer 1.. = 100 — the most rows to return
//
// column title — the descendant's title
// column year — its publication year
// column arxiv_id — its arXiv id, or null
// column doi — its DOI, or null
// column paper_id — its key in the graph (usable as a `paper` parameter)
// column distance — the fewest citation steps from it to the paper
//
// Neo4j Browser:
// :param paper => '1811.05532';
// :param depth => 2;
// :param since => null;
// :param until => null;
// :param limit => 100;

MATCH (p:Paper)
WHERE p.paper_id = $paper OR p.arxiv_id = $paper
// A path bound can't be a parameter, so each depth has its own breadth-first expansion;
// the guard on $depth is checked before expanding, so only one branch does any work.
CALL (p) {
  MATCH path = (p)<-[:CITES*1..1]-(d:Paper) WHERE $depth = 1
  RETURN d, min(length(path)) AS distance
  UNION ALL
  MATCH path = (p)<-[:CITES*1..2]-(d:Paper) WHERE $depth = 2
  RETURN d, min(length(path)) AS distance
  UNION ALL
  MATCH path = (p)<-[:CITES*1..3]-(d:Paper) WHERE $depth = 3
  RETURN d, min(length(path)) AS distance
  UNION ALL
  MATCH path = (p)<-[:CITES*1..4]-(d:Paper) WHERE $depth = 4
  RETURN d, min(length(path)) AS distance
  UNION ALL
  MATCH path = (p)<-[:CITES*1..5]-(d:Paper) WHERE $depth = 5
  RETURN d, min(length(path)) AS distance
}
WITH p, d, distance
WHERE d <> p  // a citation cycle leads back to the paper itself
  AND ($since IS NULL OR d.year >= $since) AND ($until IS NULL OR d.year <= $until)
RETURN d.title AS title, d.year AS year, d.arxiv_id AS arxiv_id, d.doi AS doi, d.paper_id AS paper_id,
       distance
ORDER BY distance, title, paper_id
LIMIT $limit
