// name: analysis_write_clusters
// One batch of clusters: label, size, core papers (paper_ids, most
// central first) and neighbouring clusters (numbers, with the link weight to each).
//
// param rows: list — one map per cluster: id, label, size and core papers
// param run_id: string — the run's id
UNWIND $rows AS row
MERGE (c:Cluster {cluster_id: row.cluster_id})
SET c.network = row.network, c.number = row.number, c.label = row.label, c.size = row.size,
    c.core = row.core, c.neighbours = row.neighbours, c.neighbour_weights = row.neighbour_weights,
    c.analysis_run = $run_id;
