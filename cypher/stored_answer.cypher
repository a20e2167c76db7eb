// name: stored_answer
// A library query's stored answer, when it is current and was computed by this version of
// the query with these parameters (the fingerprint says both).
//
// param query: string — the library query's name
// param fingerprint: string — the SHA-256 of the query's Cypher, columns and parameter values
MATCH (a:Answer {query: $query})
WHERE a.current AND a.fingerprint = $fingerprint
RETURN a.rows AS rows, a.columns AS columns, a.computed_at AS computed_at;
