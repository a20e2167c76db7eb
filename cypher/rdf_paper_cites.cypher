// name: rdf_paper_cites
// Every citation between papers (the CiTO export)
MATCH (a:Paper)-[:CITES]->(b:Paper) RETURN a.paper_id AS a, b.paper_id AS b
