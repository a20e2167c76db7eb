// name: terminate_transactions
// Terminate transactions by id (those SHOW TRANSACTIONS lists).
//
// param ids: list — the transactions' ids
TERMINATE TRANSACTIONS $ids
YIELD transactionId, message
RETURN transactionId AS id, message;
