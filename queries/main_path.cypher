// name: main_path
// The backbone of the field: the main path of the citation graph by search path count, as
// the last `paperkg analyze` found it, in order from the earliest work to the latest. `global`
// is the one source-to-sink path of the largest total search path count; `key_route` joins the
// paths through the edges of the largest counts, extended backward and forward (several
// branches). For one paper's lineage: `paperkg main-path --paper PAPER`.
//
// param kind: string {global|key_route} = 'global' — which main path
// param limit: integer 1.. = 200 — the most rows to return
//
// column position — the paper's place on the path (1 is the earliest)
// column title — the paper's title
// column year — its publication year
// column arxiv_id — its arXiv id, or null
// column paper_id — its key in the graph (usable as a `paper` parameter)
// column leads_to — the paper_ids the path goes on to from it (citing it)
//
// Neo4j Browser:
// :param kind => 'global';
// :param limit => 200;

CALL () {
  MATCH (p:Paper) WHERE $kind = 'global' AND p.main_path IS NOT NULL
  RETURN p, p.main_path AS position
  UNION ALL
  MATCH (p:Paper) WHERE $kind = 'key_route' AND p.key_route IS NOT NULL
  RETURN p, p.key_route AS position
}
WITH p, position ORDER BY position LIMIT $limit
RETURN position, p.title AS title, p.year AS year, p.arxiv_id AS arxiv_id, p.paper_id AS paper_id,
       CASE $kind
         WHEN 'global' THEN COLLECT { MATCH (p)<-[:CITES]-(n:Paper) WHERE n.main_path = position + 1
                                      RETURN n.paper_id }
         ELSE coalesce(p.key_route_next, [])
       END AS leads_to
ORDER BY position
