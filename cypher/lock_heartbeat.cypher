// lock_heartbeat: show the lock's holder is alive; no row means the lock was taken from us.
MATCH (l:IngestLock {name: $name, owner: $owner})
SET l.heartbeat = datetime()
RETURN l.owner AS owner;
