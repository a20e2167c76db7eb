// name: evidences
// One row of evidences.csv in its own transaction: the Evidence node with its typed properties
// (the benchmark's naive path).
//
// param id: string — the node's key
// param properties: map — the row's typed properties
MERGE (n:Evidence {key: $id})
SET n += $properties;
