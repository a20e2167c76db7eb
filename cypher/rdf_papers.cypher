// name: rdf_papers
// Every paper's identifiers, title and year (the CiTO export)
MATCH (p:Paper)
RETURN p.paper_id AS id, p.arxiv_id AS arxiv_id, p.doi AS doi, p.title AS title, p.year AS year
