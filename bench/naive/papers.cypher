// name: papers
// One row of papers.csv in its own transaction: the Paper node with its typed properties (the
// benchmark's naive path).
//
// param id: string — the node's key
// param properties: map — the row's typed properties
MERGE (n:Paper {paper_id: $id})
SET n += $properties;
