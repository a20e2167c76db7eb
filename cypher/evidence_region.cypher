// name: evidence_region
// The papers with evidence that shares an identifier with the given ones,
// each with all of its evidence ([arxiv_id, doi, title_norm, year, fallback]).
//
// param arxiv_ids: list — arXiv ids the batch's evidence states
// param dois: list — DOIs the batch's evidence states
// param fallbacks: list — fallback keys the batch's evidence states
// param titles: list — normalised titles the batch's evidence states
CALL () {
  UNWIND $arxiv_ids AS value
  MATCH (:Evidence {arxiv_id: value})-[:OF]->(p:Paper)
  RETURN p
  UNION
  UNWIND $dois AS value
  MATCH (:Evidence {doi: value})-[:OF]->(p:Paper)
  RETURN p
  UNION
  UNWIND $titles AS value
  MATCH (:Evidence {title_norm: value})-[:OF]->(p:Paper)
  RETURN p
  UNION
  UNWIND $fallbacks AS value
  MATCH (:Evidence {fallback: value})-[:OF]->(p:Paper)
  RETURN p
}
WITH DISTINCT p
MATCH (e:Evidence)-[:OF]->(p)
WITH p, collect([e.arxiv_id, e.doi, e.title_norm, e.year, e.fallback]) AS evidence
RETURN collect([p.paper_id, evidence]) AS found;
