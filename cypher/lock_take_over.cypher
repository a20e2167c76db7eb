// name: lock_take_over
// Replace a stale holder, only if it is still the one we judged stale; returns, beside the new
// owner, the bulk load that holder had not finished (its run id), which the new holder undoes.
//
// param holder: map — who takes the lock: owner, host, pid and process start
// param name: string — the lock's name
// param stale_owner: string — the holder judged stale
MATCH (l:IngestLock {name: $name, owner: $stale_owner})
WITH l, l.unfinished_load AS unfinished_load
SET l += $holder, l.acquired_at = datetime(), l.heartbeat = datetime()
REMOVE l.unfinished_load
RETURN l.owner AS owner, unfinished_load;
