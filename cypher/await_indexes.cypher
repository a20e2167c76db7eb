// name: await_indexes
// Wait until every index is online (after the schema is applied).
//
// param seconds: integer — how long to wait at most
CALL db.awaitIndexes($seconds)
