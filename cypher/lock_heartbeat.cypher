// name: lock_heartbeat
// Show the lock's holder is alive; no row means the lock was taken from us.
//
// param name: string — the lock's name
// param owner: string — the holder that took the lock
MATCH (l:IngestLock {name: $name, owner: $owner})
SET l.heartbeat = datetime()
RETURN l.owner AS owner;
