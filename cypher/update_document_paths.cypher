// name: update_document_paths
// Documents found at another path than the one they were ingested from.
//
// param rows: list — maps of a doc_id and the path it was found at
UNWIND $rows AS row
MATCH (d:Document {doc_id: row.doc_id})
SET d.path = row.path;
