// name: search_indexes
// The full-text indexes with their ids: each keeps its Lucene files in the store's
// schema/index/fulltext-1.0/<id>, whose size the benchmark reports.
SHOW FULLTEXT INDEXES YIELD id, name RETURN id, name ORDER BY name;
