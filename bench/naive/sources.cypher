// name: sources
// One row of sources.csv in its own transaction: the Source node with its typed properties
// (the benchmark's naive path).
//
// param id: string — the node's key
// param properties: map — the row's typed properties
MERGE (n:Source {source_id: $id})
SET n += $properties;
