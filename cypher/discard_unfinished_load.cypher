// name: discard_unfinished_load
// Undo a bulk load that did not finish: it began on an empty graph (paperkg.load.bulk checks,
// holding the lock), so every node but the lock goes, with its relationships; the schema stays.
// Auto-commit (CALL ... IN TRANSACTIONS).
MATCH (n) WHERE NOT n:IngestLock
CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 1000 ROWS;
