// name: analysis_write_papers
// One batch of per-paper results, with the run that computed them
// (a null clears what an earlier run wrote).
//
// param rows: list — one map per paper: its paper_id and computed values
// param run_id: string — the run's id
UNWIND $rows AS row
MATCH (p:Paper {paper_id: row.paper_id})
SET p.pagerank = row.pagerank, p.citations = row.citations, p.references = row.references,
    p.cocitation_cluster = row.cocitation_cluster, p.coupling_cluster = row.coupling_cluster,
    p.main_path = row.main_path, p.key_route = row.key_route, p.key_route_next = row.key_route_next,
    p.analysis_run = $run_id;
