// evidence_papers: which of the batch's evidence the graph already holds, and the paper it is.
UNWIND $keys AS key
MATCH (:Evidence {key: key})-[:OF]->(p:Paper)
RETURN collect([key, p.paper_id]) AS found;
