// name: clusters
// The clusters of the co-citation network (works cited together) or of the coupling network
// (papers citing the same works), as the last `paperkg analyze` found them (Leiden,
// modularity): largest first, each with a label made of the words its most central papers'
// titles share, and those papers.
//
// param network: string {cocitation|coupling} = 'cocitation' — which network's clusters
// param min_size: integer 2.. = 2 — only clusters of at least this many papers
// param limit: integer 1.. = 50 — the most rows to return
//
// column cluster — the cluster's number (0 is the largest)
// column label — the words its core papers' titles use most
// column size — how many papers it holds
// column core — its most central papers (by PageRank): maps of paper_id, title, year
//
// Neo4j Browser:
// :param network => 'cocitation';
// :param min_size => 2;
// :param limit => 50;

MATCH (c:Cluster)
WHERE c.network = $network AND c.size >= $min_size
WITH c ORDER BY c.number LIMIT $limit
RETURN c.number AS cluster, c.label AS label, c.size AS size,
       [id IN c.core | COLLECT { MATCH (p:Paper {paper_id: id})
                                 RETURN {paper_id: p.paper_id, title: p.title, year: p.year} }[0]] AS core
ORDER BY cluster
