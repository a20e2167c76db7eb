// delete_document: forget a document whose file is gone (after retract_document).
MATCH (d:Document {doc_id: $doc_id})
DETACH DELETE d;
