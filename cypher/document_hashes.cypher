// document_hashes: the content hash each already-ingested document was last written with.
UNWIND $doc_ids AS doc_id
MATCH (d:Document {doc_id: doc_id})
RETURN d.doc_id AS doc_id, d.sha256 AS sha256;
