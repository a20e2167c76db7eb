// name: analysis_project_papers
// The given papers, each with the papers it cites (a lineage's
// projection, read one citation step at a time).
//
// param ids: list — paper_ids of the papers to project
UNWIND $ids AS id
MATCH (p:Paper {paper_id: id})
RETURN p.paper_id AS paper_id, p.year AS year, p.title AS title,
       [(p)-[:CITES]->(q:Paper) | q.paper_id] AS cites
ORDER BY paper_id;
