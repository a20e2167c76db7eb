// name: outdate_answers
// The stored answers no longer answer for the graph: run in every transaction that changes
// what the documents assert, so no answer is read after a change it has not seen. The
// library runs an outdated answer's query itself until it is computed again.
MATCH (a:Answer)
WHERE a.current
SET a.current = false, a.rows = null;
