// name: checked_against
// One row of checked_against.csv in its own transaction: the relationship between two nodes
// that already exist, with its typed properties (the benchmark's naive path).
//
// param end: string — the end node's key
// param properties: map — the row's typed properties
// param start: string — the start node's key
MATCH (a:Claim {claim_id: $start}), (b:Source {source_id: $end})
MERGE (a)-[r:CHECKED_AGAINST]->(b)
SET r += $properties;
