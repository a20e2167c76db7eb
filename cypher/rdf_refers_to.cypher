// name: rdf_refers_to
// Every source matched to a work (the CiTO export)
MATCH (s:Source)-[:REFERS_TO]->(p:Paper) RETURN s.source_id AS source, p.paper_id AS paper
