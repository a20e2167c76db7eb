// documents_under: the documents last ingested from files below a directory.
MATCH (d:Document)
WHERE d.path STARTS WITH $prefix
RETURN collect(d.doc_id) AS doc_ids;
