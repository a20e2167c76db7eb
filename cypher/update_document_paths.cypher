// update_document_paths: documents found at another path than the one they were ingested from.
UNWIND $rows AS row
MATCH (d:Document {doc_id: row.doc_id})
SET d.path = row.path;
