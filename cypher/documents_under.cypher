// name: documents_under
// The documents last ingested from files below a directory.
//
// param prefix: string — the directory's path, ending with a separator
MATCH (d:Document)
WHERE d.path STARTS WITH $prefix
RETURN collect(d.doc_id) AS doc_ids;
