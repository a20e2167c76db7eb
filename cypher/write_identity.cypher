// name: write_identity
// Each resolved work's identifiers on its node, and its evidence (one
// Evidence node per distinct evidence, OF the paper it resolved to).
//
// param rows: list — one map per row to write, as ingest/graph/rows.py builds them
UNWIND $rows AS row
MATCH (p:Paper {paper_id: row.paper_id})
SET p.arxiv_id = row.arxiv_id, p.doi = row.doi, p.dois = row.dois, p.fallback = row.fallback
WITH p, row
CALL (p, row) {
  UNWIND row.evidence AS found
  MERGE (e:Evidence {key: found.key})
  ON CREATE SET e.arxiv_id = found.arxiv_id, e.doi = found.doi, e.title_norm = found.title_norm,
                e.year = found.year, e.fallback = found.fallback
  WITH e, p
  OPTIONAL MATCH (e)-[old:OF]->(other:Paper) WHERE other <> p
  DELETE old
  MERGE (e)-[:OF]->(p)
};
