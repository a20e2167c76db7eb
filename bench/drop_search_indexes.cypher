// name: drop_search_indexes
// The full-text indexes of cypher/schema.cypher dropped, so the benchmark can time building
// them again over the graph it holds (applying the schema does).
DROP INDEX claim_text IF EXISTS;
DROP INDEX check_note_text IF EXISTS;
DROP INDEX work_text IF EXISTS;
DROP INDEX evidence_title_text IF EXISTS;
