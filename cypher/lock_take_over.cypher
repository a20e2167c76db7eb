// name: lock_take_over
// Replace a stale holder, only if it is still the one we judged stale; returns, beside the new
// owner, the load that holder had not finished (its run id and kind). The mark stays until the
// new holder has finished or undone that load, so a holder that dies doing so leaves it too.
//
// param holder: map — who takes the lock: owner, host, pid and process start
// param name: string — the lock's name
// param stale_owner: string = null — the holder judged stale (null: an imported lock, held by nobody)
MATCH (l:IngestLock {name: $name})
WHERE l.owner = $stale_owner OR (l.owner IS NULL AND $stale_owner IS NULL)
SET l += $holder, l.acquired_at = datetime(), l.heartbeat = datetime()
RETURN l.owner AS owner, l.unfinished_load AS unfinished_load, l.load_kind AS load_kind;
