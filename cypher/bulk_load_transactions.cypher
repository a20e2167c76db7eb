// name: bulk_load_transactions
// The transactions of a bulk load still open on the server: a statement goes on while its
// connection does (a client frozen, or on a machine that stopped answering), until it ends or
// is terminated. Every transaction, with whether the metadata the load gives its statements
// marks it as the load's (paperkg.load.bulk), and the one whose batch it runs (its outer
// transaction, for the batches of a CALL … IN TRANSACTIONS), so that the caller finds both,
// and whether it is terminated (it then commits nothing; it is listed until it has rolled back).
//
// param key: string — the metadata's key for a bulk load's run id (paperkg.load.bulk.TRANSACTION_METADATA)
// param load: string — the bulk load's run id
SHOW TRANSACTIONS YIELD transactionId, outerTransactionId, metaData, status
RETURN transactionId AS id, outerTransactionId AS outer, coalesce(metaData[$key] = $load, false) AS of_load,
       status STARTS WITH 'Terminated' AS terminated;
