// name: graph_holds_nodes
// Whether the graph holds any node but the ingestion lock and the format stamp (a bulk load
// needs an empty graph). Stops at the first it finds.
RETURN EXISTS { MATCH (n) WHERE NOT n:IngestLock AND NOT n:GraphFormat } AS holds_nodes;
