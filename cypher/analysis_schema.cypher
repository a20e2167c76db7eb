// name: analysis_schema
// What the analysis queries look up (applied by `paperkg analyze`, idempotent).
CREATE CONSTRAINT cluster_id IF NOT EXISTS FOR (c:Cluster) REQUIRE c.cluster_id IS UNIQUE;
CREATE CONSTRAINT analysis_run_id IF NOT EXISTS FOR (r:AnalysisRun) REQUIRE r.run_id IS UNIQUE;
CREATE INDEX paper_pagerank IF NOT EXISTS FOR (p:Paper) ON (p.pagerank);
CREATE INDEX paper_cocitation_cluster IF NOT EXISTS FOR (p:Paper) ON (p.cocitation_cluster);
CREATE INDEX paper_coupling_cluster IF NOT EXISTS FOR (p:Paper) ON (p.coupling_cluster);
CREATE INDEX paper_main_path IF NOT EXISTS FOR (p:Paper) ON (p.main_path);
CREATE INDEX paper_key_route IF NOT EXISTS FOR (p:Paper) ON (p.key_route);
