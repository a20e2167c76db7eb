// name: makes
// One row of makes.csv in its own transaction: the relationship between two nodes that already
// exist, with its typed properties (the benchmark's naive path).
//
// param end: string — the end node's key
// param properties: map — the row's typed properties
// param start: string — the start node's key
MATCH (a:Paper {paper_id: $start}), (b:Claim {claim_id: $end})
MERGE (a)-[r:MAKES]->(b)
SET r += $properties;
