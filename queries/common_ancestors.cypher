// name: common_ancestors
// The foundations two papers share: works both build on, each within `depth` citation
// steps, with the fewest steps from either paper. Works close to both come first.
//
// param paper: paper — the first paper (arXiv id, DOI or paper_id)
// param other: paper — the second paper
// param depth: integer 1..5 = 2 — how many citation steps to follow from each paper
// param limit: integer 1.. = 100 — the most rows to return
//
// column title — the shared ancestor's title
// column year — its publication year
// column arxiv_id — its arXiv id, or null
// column doi — its DOI, or null
// column paper_id — its key in the graph (usable as a `paper` parameter)
// column paper_distance — the fewest citation steps from `paper` to it
// column other_distance — the fewest citation steps from `other` to it
//
// Neo4j Browser:
// :param paper => '2310.05512';
// :param other => '2402.06618';
// :param depth => 2;
// :param limit => 100;

MATCH (p:Paper)
WHERE p.paper_id = $paper OR p.arxiv_id = $paper
MATCH (o:Paper)
WHERE o.paper_id = $other OR o.arxiv_id = $other
// Both lineages in one pass, one bounded breadth-first expansion per side and depth (a path
// bound can't be a parameter; the $depth guards are checked before expanding), then joined
// by grouping on the ancestor.
CALL (p, o) {
  MATCH path = (p)-[:CITES*1..1]->(a:Paper) WHERE $depth = 1
  RETURN a, min(length(path)) AS paper_distance, null AS other_distance
  UNION ALL
  MATCH path = (p)-[:CITES*1..2]->(a:Paper) WHERE $depth = 2
  RETURN a, min(length(path)) AS paper_distance, null AS other_distance
  UNION ALL
  MATCH path = (p)-[:CITES*1..3]->(a:Paper) WHERE $depth = 3
  RETURN a, min(length(path)) AS paper_distance, null AS other_distance
  UNION ALL
  MATCH path = (p)-[:CITES*1..4]->(a:Paper) WHERE $depth = 4
  RETURN a, min(length(path)) AS paper_distance, null AS other_distance
  UNION ALL
  MATCH path = (p)-[:CITES*1..5]->(a:Paper) WHERE $depth = 5
  RETURN a, min(length(path)) AS paper_distance, null AS other_distance
  UNION ALL
  MATCH path = (o)-[:CITES*1..1]->(a:Paper) WHERE $depth = 1
  RETURN a, null AS paper_distance, min(length(path)) AS other_distance
  UNION ALL
  MATCH path = (o)-[:CITES*1..2]->(a:Paper) WHERE $depth = 2
  RETURN a, null AS paper_distance, min(length(path)) AS other_distance
  UNION ALL
  MATCH path = (o)-[:CITES*1..3]->(a:Paper) WHERE $depth = 3
  RETURN a, null AS paper_distance, min(length(path)) AS other_distance
  UNION ALL
  MATCH path = (o)-[:CITES*1..4]->(a:Paper) WHERE $depth = 4
  RETURN a, null AS paper_distance, min(length(path)) AS other_distance
  UNION ALL
  MATCH path = (o)-[:CITES*1..5]->(a:Paper) WHERE $depth = 5
  RETURN a, null AS paper_distance, min(length(path)) AS other_distance
}
WITH p, o, a, min(paper_distance) AS paper_distance, min(other_distance) AS other_distance
WHERE paper_distance IS NOT NULL AND other_distance IS NOT NULL AND a <> p AND a <> o
RETURN a.title AS title, a.year AS year, a.arxiv_id AS arxiv_id, a.doi AS doi, a.paper_id AS paper_id,
       paper_distance, other_distance
ORDER BY paper_distance + other_distance, title, paper_id
LIMIT $limit
