// name: write_identity
// Each resolved work's identifiers on its node, and its evidence (one
// Evidence node per distinct evidence, OF the paper it resolved to). Evidence the graph did
// not hold is created with its OF (neither can exist: identity resolution looked its key up);
// evidence that was OF another node moves here.
//
// param rows: list — one map per row to write, as paperkg/graph/rows.py builds them
UNWIND $rows AS row
MATCH (p:Paper {paper_id: row.paper_id})
SET p.arxiv_id = row.arxiv_id, p.doi = row.doi, p.dois = row.dois, p.fallback = row.fallback
WITH p, row
CALL (p, row) {
  UNWIND row.new_evidence AS found
  CREATE (:Evidence {key: found.key, arxiv_id: found.arxiv_id, doi: found.doi, title_norm: found.title_norm,
                     year: found.year, fallback: found.fallback})-[:OF]->(p)
}
CALL (p, row) {
  UNWIND row.moved_evidence AS found
  MATCH (e:Evidence {key: found.key})
  OPTIONAL MATCH (e)-[old:OF]->(other:Paper) WHERE other <> p
  DELETE old
  MERGE (e)-[:OF]->(p)
};
