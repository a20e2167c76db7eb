// await_indexes: wait until every index is online (after the schema is applied).
CALL db.awaitIndexes($seconds)
