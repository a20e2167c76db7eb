// name: evidence_of
// One row of evidence_of.csv in its own transaction: the relationship between two nodes that
// already exist, with its typed properties (the benchmark's naive path).
//
// param end: string — the end node's key
// param properties: map — the row's typed properties
// param start: string — the start node's key
MATCH (a:Evidence {key: $start}), (b:Paper {paper_id: $end})
MERGE (a)-[r:OF]->(b)
SET r += $properties;
