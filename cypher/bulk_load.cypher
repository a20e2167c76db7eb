// name: bulk_load
// The first load of a corpus into an empty graph (`paperkg ingest --bulk`): the CSV files of
// `paperkg export --admin-import`, written into the managed server's import directory, read
// back with LOAD CSV. The export has resolved identity over the whole corpus, so every node
// and relationship is new: each statement CREATEs, where a load into a graph that may hold
// them must MERGE (bench/run.py derives the benchmark's hand-written `LOAD CSV` from this file
// by that change alone). Nodes first, then the relationships between them, one statement per
// file, in auto-commit transactions. The nodes and the MENTIONS take two transactions at once
// (each statement CREATEs distinct elements); the other relationships commit one batch at a
// time, as their batches meet on the same papers and claims and would wait on each other.
// Columns are named as in the CSV headers, `name:type`; an empty field gives no property
// (null), as in the importer, and an empty quoted list field an empty list. The derived
// properties (a paper's lower-cased title, a claim's status) are stored afterwards by
// paperkg's one statement of each rule, as after an offline import.
//
// param folder: string — the export's URL in the import directory, without a trailing slash ('file:///paperkg-bulk-…')
// param delimiter: string — the list elements' separator (admin_import.ARRAY_DELIMITER, U+001F)

LOAD CSV WITH HEADERS FROM $folder + '/papers.csv' AS row
CALL (row) {
  CREATE (n:Paper {paper_id: row.`paper_id:ID(Paper)`})
  SET n.arxiv_id = row.`arxiv_id:string`,
      n.doi = row.`doi:string`,
      n.dois = CASE row.`dois:string[]` WHEN '' THEN [] ELSE split(row.`dois:string[]`, $delimiter) END,
      n.fallback = row.`fallback:string`,
      n.title = row.`title:string`,
      n.title_norm = row.`title_norm:string`,
      n.year = toInteger(row.`year:long`),
      n.venue = row.`venue:string`,
      n.authors = CASE row.`authors:string[]` WHEN '' THEN [] ELSE split(row.`authors:string[]`, $delimiter) END,
      n.cited_by_count = toInteger(row.`cited_by_count:long`),
      n.reference_count = toInteger(row.`reference_count:long`),
      n.builds_on_in_map = toInteger(row.`builds_on_in_map:long`),
      n.first_posted = date(row.`first_posted:date`),
      n.abstract = row.`abstract:string`,
      n.url = row.`url:string`,
      n.reference_text = row.`reference_text:string`
} IN 2 CONCURRENT TRANSACTIONS OF 5000 ROWS;

LOAD CSV WITH HEADERS FROM $folder + '/evidences.csv' AS row
CALL (row) {
  CREATE (n:Evidence {key: row.`key:ID(Evidence)`})
  SET n.arxiv_id = row.`arxiv_id:string`,
      n.doi = row.`doi:string`,
      n.title_norm = row.`title_norm:string`,
      n.year = toInteger(row.`year:long`),
      n.fallback = row.`fallback:string`
} IN 2 CONCURRENT TRANSACTIONS OF 5000 ROWS;

LOAD CSV WITH HEADERS FROM $folder + '/documents.csv' AS row
CALL (row) {
  CREATE (n:Document {doc_id: row.`doc_id:ID(Document)`})
  SET n.path = row.`path:string`,
      n.sha256 = row.`sha256:string`,
      n.kind = row.`kind:string`,
      n.size_bytes = toInteger(row.`size_bytes:long`),
      n.paper_key = row.`paper_key:string`,
      n.warnings = CASE row.`warnings:string[]` WHEN '' THEN [] ELSE split(row.`warnings:string[]`, $delimiter) END,
      n.run_id = row.`run_id:string`,
      n.ingested_at = datetime(row.`ingested_at:datetime`)
} IN 2 CONCURRENT TRANSACTIONS OF 5000 ROWS;

LOAD CSV WITH HEADERS FROM $folder + '/claims.csv' AS row
CALL (row) {
  CREATE (n:Claim {claim_id: row.`claim_id:ID(Claim)`})
  SET n.text = row.`text:string`,
      n.quotes = CASE row.`quotes:string[]` WHEN '' THEN [] ELSE split(row.`quotes:string[]`, $delimiter) END,
      n.kind = row.`kind:string`,
      n.basis = row.`basis:string`,
      n.section = row.`section:string`,
      n.substantial = toBoolean(row.`substantial:boolean`),
      n.sources_checked = toInteger(row.`sources_checked:long`),
      n.sources_total = toInteger(row.`sources_total:long`),
      n.flags = CASE row.`flags:string[]` WHEN '' THEN [] ELSE split(row.`flags:string[]`, $delimiter) END,
      n.flag_reasons = CASE row.`flag_reasons:string[]` WHEN '' THEN [] ELSE split(row.`flag_reasons:string[]`, $delimiter) END,
      n.support_note = row.`support_note:string`,
      n.rests_on_assumption = toBoolean(row.`rests_on_assumption:boolean`),
      n.also_stated_in = CASE row.`also_stated_in:string[]` WHEN '' THEN [] ELSE split(row.`also_stated_in:string[]`, $delimiter) END,
      n.origin = row.`origin:string`
} IN 2 CONCURRENT TRANSACTIONS OF 5000 ROWS;

LOAD CSV WITH HEADERS FROM $folder + '/sources.csv' AS row
CALL (row) {
  CREATE (n:Source {source_id: row.`source_id:ID(Source)`})
  SET n.key = row.`key:string`,
      n.first_author = row.`first_author:string`,
      n.year = toInteger(row.`year:long`),
      n.year_suffix = row.`year_suffix:string`,
      n.matched = toBoolean(row.`matched:boolean`)
} IN 2 CONCURRENT TRANSACTIONS OF 5000 ROWS;

LOAD CSV WITH HEADERS FROM $folder + '/paper_cites.csv' AS row
CALL (row) {
  MATCH (a:Paper {paper_id: row.`:START_ID(Paper)`}), (b:Paper {paper_id: row.`:END_ID(Paper)`})
  CREATE (a)-[r:CITES]->(b)
  SET r.docs = CASE row.`docs:string[]` WHEN '' THEN [] ELSE split(row.`docs:string[]`, $delimiter) END
} IN TRANSACTIONS OF 10000 ROWS;

LOAD CSV WITH HEADERS FROM $folder + '/paper_mentions.csv' AS row
CALL (row) {
  MATCH (a:Document {doc_id: row.`:START_ID(Document)`}), (b:Paper {paper_id: row.`:END_ID(Paper)`})
  CREATE (a)-[r:MENTIONS {key: row.`key:string`}]->(b)
  SET r.lines = [line IN split(row.`lines:long[]`, $delimiter) | toInteger(line)],
      r.subject = toBoolean(row.`subject:boolean`),
      r.cited = toBoolean(row.`cited:boolean`),
      r.citing = toBoolean(row.`citing:boolean`),
      r.sources = CASE row.`sources:string[]` WHEN '' THEN [] ELSE split(row.`sources:string[]`, $delimiter) END,
      r.title = row.`title:string`,
      r.title_norm = row.`title_norm:string`,
      r.year = toInteger(row.`year:long`),
      r.venue = row.`venue:string`,
      r.authors = CASE row.`authors:string[]` WHEN '' THEN [] ELSE split(row.`authors:string[]`, $delimiter) END,
      r.cited_by_count = toInteger(row.`cited_by_count:long`),
      r.reference_count = toInteger(row.`reference_count:long`),
      r.builds_on_in_map = toInteger(row.`builds_on_in_map:long`),
      r.first_posted = date(row.`first_posted:date`),
      r.abstract = row.`abstract:string`,
      r.url = row.`url:string`,
      r.reference_text = row.`reference_text:string`,
      r.precedence = row.`precedence:string`
} IN 2 CONCURRENT TRANSACTIONS OF 5000 ROWS;

LOAD CSV WITH HEADERS FROM $folder + '/evidence_of.csv' AS row
CALL (row) {
  MATCH (a:Evidence {key: row.`:START_ID(Evidence)`}), (b:Paper {paper_id: row.`:END_ID(Paper)`})
  CREATE (a)-[:OF]->(b)
} IN TRANSACTIONS OF 10000 ROWS;

LOAD CSV WITH HEADERS FROM $folder + '/claim_mentions.csv' AS row
CALL (row) {
  MATCH (a:Document {doc_id: row.`:START_ID(Document)`}), (b:Claim {claim_id: row.`:END_ID(Claim)`})
  CREATE (a)-[r:MENTIONS]->(b)
} IN 2 CONCURRENT TRANSACTIONS OF 5000 ROWS;

LOAD CSV WITH HEADERS FROM $folder + '/source_mentions.csv' AS row
CALL (row) {
  MATCH (a:Document {doc_id: row.`:START_ID(Document)`}), (b:Source {source_id: row.`:END_ID(Source)`})
  CREATE (a)-[r:MENTIONS]->(b)
} IN 2 CONCURRENT TRANSACTIONS OF 5000 ROWS;

LOAD CSV WITH HEADERS FROM $folder + '/makes.csv' AS row
CALL (row) {
  MATCH (a:Paper {paper_id: row.`:START_ID(Paper)`}), (b:Claim {claim_id: row.`:END_ID(Claim)`})
  CREATE (a)-[r:MAKES]->(b)
  SET r.docs = CASE row.`docs:string[]` WHEN '' THEN [] ELSE split(row.`docs:string[]`, $delimiter) END
} IN TRANSACTIONS OF 10000 ROWS;

LOAD CSV WITH HEADERS FROM $folder + '/claim_cites.csv' AS row
CALL (row) {
  MATCH (a:Claim {claim_id: row.`:START_ID(Claim)`}), (b:Source {source_id: row.`:END_ID(Source)`})
  CREATE (a)-[r:CITES]->(b)
  SET r.docs = CASE row.`docs:string[]` WHEN '' THEN [] ELSE split(row.`docs:string[]`, $delimiter) END
} IN TRANSACTIONS OF 10000 ROWS;

LOAD CSV WITH HEADERS FROM $folder + '/checked_against.csv' AS row
CALL (row) {
  MATCH (a:Claim {claim_id: row.`:START_ID(Claim)`}), (b:Source {source_id: row.`:END_ID(Source)`})
  CREATE (a)-[r:CHECKED_AGAINST]->(b)
  SET r.verdict = row.`verdict:string`,
      r.confidence = toFloat(row.`confidence:double`),
      r.rationale = row.`rationale:string`,
      r.ambiguous = toBoolean(row.`ambiguous:boolean`),
      r.docs = CASE row.`docs:string[]` WHEN '' THEN [] ELSE split(row.`docs:string[]`, $delimiter) END
} IN TRANSACTIONS OF 10000 ROWS;

LOAD CSV WITH HEADERS FROM $folder + '/supports.csv' AS row
CALL (row) {
  MATCH (a:Source {source_id: row.`:START_ID(Source)`}), (b:Claim {claim_id: row.`:END_ID(Claim)`})
  CREATE (a)-[r:SUPPORTS]->(b)
  SET r.docs = CASE row.`docs:string[]` WHEN '' THEN [] ELSE split(row.`docs:string[]`, $delimiter) END
} IN TRANSACTIONS OF 10000 ROWS;

LOAD CSV WITH HEADERS FROM $folder + '/refers_to.csv' AS row
CALL (row) {
  MATCH (a:Source {source_id: row.`:START_ID(Source)`}), (b:Paper {paper_id: row.`:END_ID(Paper)`})
  CREATE (a)-[r:REFERS_TO]->(b)
  SET r.docs = CASE row.`docs:string[]` WHEN '' THEN [] ELSE split(row.`docs:string[]`, $delimiter) END
} IN TRANSACTIONS OF 10000 ROWS;
