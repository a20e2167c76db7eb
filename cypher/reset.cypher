// name: reset
// Delete every node and relationship, in batches so a large graph fits in memory.
// Runs as an auto-commit transaction (CALL ... IN TRANSACTIONS needs one).
MATCH (n) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 1000 ROWS;
