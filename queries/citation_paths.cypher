// name: citation_paths
// How two papers are connected by citations: the shortest chains of citations from `paper`
// to `other` (paper builds on other) and from `other` to `paper` (other builds on paper), no
// longer than `max_hops`. Each path lists its works from `paper` to `other`.
//
// param paper: paper — where the paths start (arXiv id, DOI or paper_id)
// param other: paper — where the paths end
// param max_hops: integer 1..10 = 6 — the longest path to report, in citation steps
// param limit: integer 1.. = 100 — the most paths to return
//
// column hops — the number of citation steps
// column direction — `builds_on` (each work cites the next) or `built_on_by` (each work is cited by the next)
// column route — the works as `title (year)`, joined by → (cites) or ← (is cited by)
// column papers — the works from `paper` to `other`: maps of title, year, arxiv_id, doi and paper_id
//
// Neo4j Browser:
// :param paper => '2503.04410';
// :param other => '1502.06401';
// :param max_hops => 6;
// :param limit => 100;

MATCH (p:Paper)
WHERE p.paper_id = $paper OR p.arxiv_id = $paper
MATCH (o:Paper)
WHERE o.paper_id = $other OR o.arxiv_id = $other
WITH p, o
WHERE p <> o  // a shortest path needs two distinct ends
// A path's bounds cannot be parameters, and a search to 10 hops between two papers that no
// chain joins visits much of the graph: each pair of branches searches only as deep as the tier
// `max_hops` falls in.
CALL (p, o) {
  WITH p, o WHERE $max_hops <= 3
  MATCH path = allShortestPaths((p)-[:CITES*1..3]->(o))
  RETURN 'builds_on' AS direction, nodes(path) AS works
  UNION ALL
  WITH p, o WHERE $max_hops <= 3
  MATCH path = allShortestPaths((o)-[:CITES*1..3]->(p))
  RETURN 'built_on_by' AS direction, reverse(nodes(path)) AS works
  UNION ALL
  WITH p, o WHERE 3 < $max_hops <= 6
  MATCH path = allShortestPaths((p)-[:CITES*1..6]->(o))
  RETURN 'builds_on' AS direction, nodes(path) AS works
  UNION ALL
  WITH p, o WHERE 3 < $max_hops <= 6
  MATCH path = allShortestPaths((o)-[:CITES*1..6]->(p))
  RETURN 'built_on_by' AS direction, reverse(nodes(path)) AS works
  UNION ALL
  WITH p, o WHERE $max_hops > 6
  MATCH path = allShortestPaths((p)-[:CITES*1..10]->(o))
  RETURN 'builds_on' AS direction, nodes(path) AS works
  UNION ALL
  WITH p, o WHERE $max_hops > 6
  MATCH path = allShortestPaths((o)-[:CITES*1..10]->(p))
  RETURN 'built_on_by' AS direction, reverse(nodes(path)) AS works
}
WITH direction, works
WHERE size(works) - 1 <= $max_hops
WITH direction, works, CASE direction WHEN 'builds_on' THEN ' → ' ELSE ' ← ' END AS arrow
RETURN size(works) - 1 AS hops, direction,
       reduce(route = '', w IN works |
              route + CASE route WHEN '' THEN '' ELSE arrow END
              + coalesce(w.title, w.paper_id) + ' (' + coalesce(toString(w.year), '?') + ')') AS route,
       [w IN works | {title: w.title, year: w.year, arxiv_id: w.arxiv_id, doi: w.doi, paper_id: w.paper_id}] AS papers
ORDER BY hops, direction, [w IN works | w.title], [w IN works | w.paper_id]
LIMIT $limit
