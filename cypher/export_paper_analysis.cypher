// name: export_paper_analysis
// What the last `paperkg analyze` wrote to the papers of an exported subgraph: PageRank,
// in-graph citation counts, cluster numbers and main-path positions (null where it has not run,
// or the paper came after it), and the label of each paper's co-citation cluster.
//
// param ids: list — paper_ids of the exported subgraph's papers
MATCH (p:Paper) WHERE p.paper_id IN $ids
OPTIONAL MATCH (c:Cluster {cluster_id: 'cocitation:' + toString(p.cocitation_cluster)})
RETURN p.paper_id AS id, p.pagerank AS pagerank, p.citations AS citations, p.references AS references,
       p.cocitation_cluster AS cocitation_cluster, p.coupling_cluster AS coupling_cluster,
       p.main_path AS main_path, p.key_route AS key_route, c.label AS cocitation_label
