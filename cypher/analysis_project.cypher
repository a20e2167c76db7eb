// name: analysis_project
// One batch of the citation graph for `paperkg analyze`: papers in paper_id
// order after $after (keyset paging on the unique index), each with the papers it cites.
//
// param after: string — the last paper_id of the previous batch ('' for the first)
// param batch: integer — the most papers in one batch
MATCH (p:Paper)
WHERE p.paper_id > $after
WITH p ORDER BY p.paper_id LIMIT $batch
RETURN p.paper_id AS paper_id, p.year AS year, p.title AS title,
       [(p)-[:CITES]->(q:Paper) | q.paper_id] AS cites;
