// name: drop_answers
// Remove stored answers: those of the queries named, or all of them.
//
// param queries: list — the queries whose answers go (null: every one)
MATCH (a:Answer)
WHERE $queries IS NULL OR a.query IN $queries
DELETE a
RETURN count(*) AS dropped;
