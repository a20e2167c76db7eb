// name: schema
// Uniqueness constraints and indexes of the graph contract (docs/model.md#labels-and-properties).
// Applied by `paperkg schema` and before every write; every statement is idempotent.

CREATE CONSTRAINT paper_id IF NOT EXISTS FOR (p:Paper) REQUIRE p.paper_id IS UNIQUE;
CREATE CONSTRAINT paper_arxiv_id IF NOT EXISTS FOR (p:Paper) REQUIRE p.arxiv_id IS UNIQUE;
CREATE CONSTRAINT paper_doi IF NOT EXISTS FOR (p:Paper) REQUIRE p.doi IS UNIQUE;
CREATE CONSTRAINT claim_id IF NOT EXISTS FOR (c:Claim) REQUIRE c.claim_id IS UNIQUE;
CREATE CONSTRAINT source_id IF NOT EXISTS FOR (s:Source) REQUIRE s.source_id IS UNIQUE;
CREATE CONSTRAINT document_id IF NOT EXISTS FOR (d:Document) REQUIRE d.doc_id IS UNIQUE;
CREATE CONSTRAINT ingest_run_id IF NOT EXISTS FOR (r:IngestRun) REQUIRE r.run_id IS UNIQUE;
CREATE INDEX paper_title_norm IF NOT EXISTS FOR (p:Paper) ON (p.title_norm);
CREATE TEXT INDEX paper_title_lower IF NOT EXISTS FOR (p:Paper) ON (p.title_lower);
CREATE INDEX paper_fallback IF NOT EXISTS FOR (p:Paper) ON (p.fallback);
CREATE CONSTRAINT evidence_key IF NOT EXISTS FOR (e:Evidence) REQUIRE e.key IS UNIQUE;
CREATE INDEX evidence_arxiv_id IF NOT EXISTS FOR (e:Evidence) ON (e.arxiv_id);
CREATE INDEX evidence_doi IF NOT EXISTS FOR (e:Evidence) ON (e.doi);
CREATE INDEX evidence_title_norm IF NOT EXISTS FOR (e:Evidence) ON (e.title_norm);
CREATE INDEX evidence_fallback IF NOT EXISTS FOR (e:Evidence) ON (e.fallback);
CREATE INDEX mentions_key IF NOT EXISTS FOR ()-[m:MENTIONS]-() ON (m.key);
CREATE INDEX document_path IF NOT EXISTS FOR (d:Document) ON (d.path);
CREATE CONSTRAINT ingest_lock_name IF NOT EXISTS FOR (l:IngestLock) REQUIRE l.name IS UNIQUE;
CREATE INDEX claim_status IF NOT EXISTS FOR (c:Claim) ON (c.status);
CREATE INDEX paper_claims_checked IF NOT EXISTS FOR (p:Paper) ON (p.claims_checked);
CREATE INDEX change_set_run IF NOT EXISTS FOR (cs:ChangeSet) ON (cs.run_id);
CREATE INDEX change_set_committed IF NOT EXISTS FOR (cs:ChangeSet) ON (cs.committed_at);
CREATE CONSTRAINT answer_query IF NOT EXISTS FOR (a:Answer) REQUIRE a.query IS UNIQUE;
// Full-text (Lucene) indexes for search_claims and search_works. Neo4j keeps them on every
// write, and builds them over a graph imported by neo4j-admin when the schema is applied after
// it. The analyzer is the built-in `standard-folding`: words split at spaces and punctuation
// (so "in-context" is "in context"), lower-cased, accents folded to ASCII ("Schölkopf" is
// "scholkopf"); like `standard` it drops 33 English stop words (a, in, not, the, …). Neo4j
// Community has no analyzer that folds accents and keeps stop words.
CREATE FULLTEXT INDEX claim_text IF NOT EXISTS FOR (c:Claim) ON EACH [c.text, c.quotes] OPTIONS {indexConfig: {`fulltext.analyzer`: 'standard-folding'}};
CREATE FULLTEXT INDEX check_note_text IF NOT EXISTS FOR ()-[k:CHECKED_AGAINST]-() ON EACH [k.rationale] OPTIONS {indexConfig: {`fulltext.analyzer`: 'standard-folding'}};
CREATE FULLTEXT INDEX work_text IF NOT EXISTS FOR (p:Paper) ON EACH [p.title, p.reference_text] OPTIONS {indexConfig: {`fulltext.analyzer`: 'standard-folding'}};
// A work's other titles: each distinct way its mentions give its title is an Evidence node's
// normalised title, OF the work.
CREATE FULLTEXT INDEX evidence_title_text IF NOT EXISTS FOR (e:Evidence) ON EACH [e.title_norm] OPTIONS {indexConfig: {`fulltext.analyzer`: 'standard-folding'}};
