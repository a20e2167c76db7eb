// name: graph_holds_nodes
// Whether the graph holds any node but the ingestion lock (a bulk load needs an empty graph).
// Stops at the first it finds.
RETURN EXISTS { MATCH (n) WHERE NOT n:IngestLock } AS holds_nodes;
