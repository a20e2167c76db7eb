// name: write_sources
// The sources a page's claims name, one per page and normalised key.
//
// param rows: list — one map per row to write, as paperkg/graph/rows.py builds them
UNWIND $rows AS row
MATCH (d:Document {doc_id: row.doc_id})
MERGE (s:Source {source_id: row.source_id})
SET s += row.properties
MERGE (d)-[:MENTIONS]->(s);
