// name: analysis_clear_clusters
// The previous run's clusters go before this run writes its own (a
// few per thousand papers, no relationships: one transaction).
MATCH (c:Cluster)
DELETE c;
