// name: documents_at_paths
// The documents last read from these paths: [doc_id, path, size_bytes] each.
//
// param paths: list — the paths a run found files at
UNWIND $paths AS path
MATCH (d:Document {path: path})
RETURN collect([d.doc_id, path, d.size_bytes]) AS found;
