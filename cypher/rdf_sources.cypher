// name: rdf_sources
// Every source and its key (the CiTO export)
MATCH (s:Source) RETURN s.source_id AS id, s.key AS key
