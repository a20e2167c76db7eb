// name: documents
// One row of documents.csv in its own transaction: the Document node with its typed properties
// (the benchmark's naive path).
//
// param id: string — the node's key
// param properties: map — the row's typed properties
MERGE (n:Document {doc_id: $id})
SET n += $properties;
