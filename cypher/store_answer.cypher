// name: store_answer
// Store a library query's answer, current as of the graph it was computed on.
//
// param query: string — the library query's name
// param fingerprint: string — the SHA-256 of the query's Cypher, columns and parameter values
// param parameters: string — the parameter values, as JSON
// param columns: list — the answer's column names
// param rows: string — the answer's rows, as JSON
// param row_count: integer — how many rows it holds
// param seconds: float — how long the query took
MERGE (a:Answer {query: $query})
SET a.fingerprint = $fingerprint, a.parameters = $parameters, a.columns = $columns, a.rows = $rows,
    a.row_count = $row_count, a.seconds = $seconds, a.computed_at = datetime(), a.current = true;
