// name: analysis_project
// One batch of the citation graph for `paperkg analyze`: papers in paper_id
// order after $after (keyset paging on the unique index), each with the papers it cites. A
// paper's CITES lead only to papers (a claim's lead to sources, and start at the claim), so the
// far end's label goes unchecked (the read would otherwise check it once per citation). The
// batch comes back as one row: the driver reads a record at a time, at a cost of its own for
// each (cypher/papers_without_title_lower.cypher).
//
// param after: string — the last paper_id of the previous batch ('' for the first)
// param batch: integer — the most papers in one batch
MATCH (p:Paper)
WHERE p.paper_id > $after
WITH p ORDER BY p.paper_id LIMIT $batch
RETURN collect({paper_id: p.paper_id, year: p.year, title: p.title, cites: [(p)-[:CITES]->(q) | q.paper_id]}) AS papers;
