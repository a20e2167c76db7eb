// name: lock_release
// Give the lock up (only our own).
//
// param name: string — the lock's name
// param owner: string — the holder that took the lock
MATCH (l:IngestLock {name: $name, owner: $owner})
DELETE l;
