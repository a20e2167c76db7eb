// name: refers_to
// One row of refers_to.csv in its own transaction: the relationship between two nodes that
// already exist, with its typed properties (the benchmark's naive path).
//
// param end: string — the end node's key
// param properties: map — the row's typed properties
// param start: string — the start node's key
MATCH (a:Source {source_id: $start}), (b:Paper {paper_id: $end})
MERGE (a)-[r:REFERS_TO]->(b)
SET r += $properties;
