// naive: the benchmark's naive path, one row of the `paperkg export --admin-import` CSV files
// per transaction. Each statement follows a `// name: NAME` line, NAME being the CSV file it
// writes a row of (without .csv) or, for the untimed creation of the sampled relationships'
// endpoints, the label. Parameters: a node row's key as $id and its typed properties as
// $properties; a relationship row's endpoint keys as $start and $end and its properties as
// $properties; the endpoints' keys as $ids.

// Nodes: one node per transaction.

// name: papers
MERGE (n:Paper {paper_id: $id})
SET n += $properties;

// name: evidences
MERGE (n:Evidence {key: $id})
SET n += $properties;

// name: documents
MERGE (n:Document {doc_id: $id})
SET n += $properties;

// name: claims
MERGE (n:Claim {claim_id: $id})
SET n += $properties;

// name: sources
MERGE (n:Source {source_id: $id})
SET n += $properties;

// Relationships: one relationship per transaction, between nodes that already exist.

// name: paper_cites
MATCH (a:Paper {paper_id: $start}), (b:Paper {paper_id: $end})
MERGE (a)-[r:CITES]->(b)
SET r += $properties;

// name: paper_mentions
MATCH (a:Document {doc_id: $start}), (b:Paper {paper_id: $end})
MERGE (a)-[r:MENTIONS {key: $properties.key}]->(b)
SET r += $properties;

// name: evidence_of
MATCH (a:Evidence {key: $start}), (b:Paper {paper_id: $end})
MERGE (a)-[r:OF]->(b)
SET r += $properties;

// name: claim_mentions
MATCH (a:Document {doc_id: $start}), (b:Claim {claim_id: $end})
MERGE (a)-[r:MENTIONS]->(b)
SET r += $properties;

// name: source_mentions
MATCH (a:Document {doc_id: $start}), (b:Source {source_id: $end})
MERGE (a)-[r:MENTIONS]->(b)
SET r += $properties;

// name: makes
MATCH (a:Paper {paper_id: $start}), (b:Claim {claim_id: $end})
MERGE (a)-[r:MAKES]->(b)
SET r += $properties;

// name: claim_cites
MATCH (a:Claim {claim_id: $start}), (b:Source {source_id: $end})
MERGE (a)-[r:CITES]->(b)
SET r += $properties;

// name: checked_against
MATCH (a:Claim {claim_id: $start}), (b:Source {source_id: $end})
MERGE (a)-[r:CHECKED_AGAINST]->(b)
SET r += $properties;

// name: supports
MATCH (a:Source {source_id: $start}), (b:Claim {claim_id: $end})
MERGE (a)-[r:SUPPORTS]->(b)
SET r += $properties;

// name: refers_to
MATCH (a:Source {source_id: $start}), (b:Paper {paper_id: $end})
MERGE (a)-[r:REFERS_TO]->(b)
SET r += $properties;

// Endpoints of the sampled relationships, written before the timed rows (untimed).

// name: Paper
UNWIND $ids AS id
MERGE (:Paper {paper_id: id});

// name: Evidence
UNWIND $ids AS id
MERGE (:Evidence {key: id});

// name: Document
UNWIND $ids AS id
MERGE (:Document {doc_id: id});

// name: Claim
UNWIND $ids AS id
MERGE (:Claim {claim_id: id});

// name: Source
UNWIND $ids AS id
MERGE (:Source {source_id: id});
