// documents_under: the documents ingested from files below a directory.
MATCH (d:Document)
WHERE d.path STARTS WITH $prefix
RETURN d.doc_id AS doc_id
ORDER BY doc_id;
