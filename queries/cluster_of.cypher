// name: cluster_of
// A paper's cluster in the co-citation or the coupling network (as the last `paperkg
// analyze` found it): its label and size, its core papers, the papers of the cluster most
// linked to this one, and the neighbouring clusters with the link weight to each. No row when
// the paper is in no cluster (cited, or citing, too little to be linked).
//
// param paper: paper — the paper (arXiv id, DOI or paper_id)
// param network: string {cocitation|coupling} = 'cocitation' — which network
// param limit: integer 1.. = 10 — the most members and neighbouring clusters to list
//
// column cluster — the cluster's number (0 is the largest)
// column label — the words its core papers' titles use most
// column size — how many papers it holds
// column core — its most central papers (by PageRank): maps of paper_id, title, year
// column members — the cluster's papers most linked to this one (co-cited with it, or sharing references with it): maps of paper_id, title, year, weight
// column neighbours — neighbouring clusters: maps of cluster, label, weight (the summed links between the two)
//
// Neo4j Browser:
// :param paper => '2103.07781';
// :param network => 'cocitation';
// :param limit => 10;

MATCH (p:Paper)
WHERE p.paper_id = $paper OR p.arxiv_id = $paper
WITH p, CASE $network WHEN 'cocitation' THEN p.cocitation_cluster ELSE p.coupling_cluster END AS number
MATCH (c:Cluster {cluster_id: $network + ':' + toString(number)})
CALL (p, number) {
  // Co-citation links a paper to the works cited beside it; coupling to the papers citing what it cites.
  MATCH (p)<-[:CITES]-(:Paper)-[:CITES]->(q:Paper)
  WHERE $network = 'cocitation' AND q <> p AND q.cocitation_cluster = number
  RETURN q, count(*) AS weight
  UNION ALL
  MATCH (p)-[:CITES]->(:Paper)<-[:CITES]-(q:Paper)
  WHERE $network = 'coupling' AND q <> p AND q.coupling_cluster = number
  RETURN q, count(*) AS weight
}
WITH p, c, q, weight ORDER BY weight DESC, q.paper_id
WITH p, c, collect({paper_id: q.paper_id, title: q.title, year: q.year, weight: weight})[..$limit] AS members
RETURN c.number AS cluster, c.label AS label, c.size AS size,
       [id IN c.core | COLLECT { MATCH (k:Paper {paper_id: id})
                                 RETURN {paper_id: k.paper_id, title: k.title, year: k.year} }[0]] AS core,
       members,
       [i IN range(0, size(c.neighbours) - 1) | COLLECT {
          MATCH (n:Cluster {cluster_id: $network + ':' + toString(c.neighbours[i])})
          RETURN {cluster: n.number, label: n.label, weight: c.neighbour_weights[i]} }[0]][..$limit] AS neighbours
ORDER BY cluster
LIMIT $limit  // one row: the paper's cluster
