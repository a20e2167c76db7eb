// name: documents_known
// Of the files a run found, the documents already in the graph (by content
// hash) and the documents last ingested from their paths: [doc_id, path, size_bytes] each.
//
// param doc_ids: list — content hashes (doc_id) of the documents concerned
// param paths: list — the paths the run found the files at
CALL () {
  UNWIND $doc_ids AS doc_id
  MATCH (d:Document {doc_id: doc_id})
  RETURN d
  UNION
  UNWIND $paths AS path
  MATCH (d:Document {path: path})
  RETURN d
}
RETURN collect([d.doc_id, d.path, d.size_bytes]) AS found;
