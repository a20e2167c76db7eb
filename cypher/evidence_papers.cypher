// name: evidence_papers
// Which of the batch's evidence the graph already holds, and the paper it is.
//
// param keys: list — the keys of the batch's evidence
UNWIND $keys AS key
MATCH (:Evidence {key: key})-[:OF]->(p:Paper)
RETURN collect([key, p.paper_id]) AS found;
