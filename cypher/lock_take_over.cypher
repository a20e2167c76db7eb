// name: lock_take_over
// Replace a stale holder, only if it is still the one we judged stale.
//
// param holder: map — who takes the lock: owner, host, pid and process start
// param name: string — the lock's name
// param stale_owner: string — the holder judged stale
MATCH (l:IngestLock {name: $name, owner: $stale_owner})
SET l += $holder, l.acquired_at = datetime(), l.heartbeat = datetime()
RETURN l.owner AS owner;
