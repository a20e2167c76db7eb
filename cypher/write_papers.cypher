// write_papers: one row per work, with what each document of the batch says about it. A
// document's statement is kept on its MENTIONS relationship; the node's properties are
// folded from those by refold_papers, so they never depend on the order of ingestion.
UNWIND $rows AS row
MERGE (p:Paper {paper_id: row.paper_id})
WITH p, row
UNWIND row.mentions AS mention
MATCH (d:Document {doc_id: mention.doc_id})
MERGE (d)-[m:MENTIONS]->(p)
SET m = mention.properties, m.rank = mention.rank;
