// lock_take_over: replace a stale holder, only if it is still the one we judged stale.
MATCH (l:IngestLock {name: $name, owner: $stale_owner})
SET l += $holder, l.acquired_at = datetime(), l.heartbeat = datetime()
RETURN l.owner AS owner;
