// name: ancestors
// What a paper builds on: every work it cites, directly or through the works those cite,
// up to `depth` citation steps, each with the fewest steps that reach it. Closest first.
//
// param paper: paper — the paper whose lineage to follow (arXiv id, DOI or paper_id)
// param depth: integer 1..5 = 2 — how many citation steps to follow
// param since: integer = null — only works published in or after this year (null: any)
// param until: integer = null — only works published in or before this year (null: any)
// param limit: integer 1.. = 100 — the most rows to return
//
// column title — the ancestor's title
// column year — its publication year
// column arxiv_id — its arXiv id, or null
// column doi — its DOI, or null
// column paper_id — its key in the graph (usable as a `paper` parameter)
// column distance — the fewest citation steps from the paper to it
//
// Neo4j Browser:
// :param paper => '2402.06618';
// :param depth => 2;
// :param since => null;
// :param until => null;
// :param limit => 100;

MATCH (p:Paper)
WHERE p.paper_id = $paper OR p.arxiv_id = $paper
// A path bound can't be a parameter, so each depth has its own breadth-first expansion;
// the guard on $depth is checked before expanding, so only one branch does any work.
CALL (p) {
  MATCH path = (p)-[:CITES*1..1]->(a:Paper) WHERE $depth = 1
  RETURN a, min(length(path)) AS distance
  UNION ALL
  MATCH path = (p)-[:CITES*1..2]->(a:Paper) WHERE $depth = 2
  RETURN a, min(length(path)) AS distance
  UNION ALL
  MATCH path = (p)-[:CITES*1..3]->(a:Paper) WHERE $depth = 3
  RETURN a, min(length(path)) AS distance
  UNION ALL
  MATCH path = (p)-[:CITES*1..4]->(a:Paper) WHERE $depth = 4
  RETURN a, min(length(path)) AS distance
  UNION ALL
  MATCH path = (p)-[:CITES*1..5]->(a:Paper) WHERE $depth = 5
  RETURN a, min(length(path)) AS distance
}
WITH p, a, distance
WHERE a <> p  // a citation cycle leads back to the paper itself
  AND ($since IS NULL OR a.year >= $since) AND ($until IS NULL OR a.year <= $until)
RETURN a.title AS title, a.year AS year, a.arxiv_id AS arxiv_id, a.doi AS doi, a.paper_id AS paper_id,
       distance
ORDER BY distance, title, paper_id
LIMIT $limit
