// name: answers
// The stored answers: which queries, whether current, and what computing each took.
MATCH (a:Answer)
RETURN a.query AS query, a.current AS current, a.fingerprint AS fingerprint, a.row_count AS rows,
       a.seconds AS seconds, a.computed_at AS computed_at
ORDER BY query;
