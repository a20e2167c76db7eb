// name: documents_with_ids
// The documents in the graph with these content hashes: [doc_id, path last read from, size_bytes] each.
//
// param doc_ids: list — content hashes (doc_id) of the documents concerned
UNWIND $doc_ids AS doc_id
MATCH (d:Document {doc_id: doc_id})
RETURN collect([d.doc_id, d.path, d.size_bytes]) AS found;
