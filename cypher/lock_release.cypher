// lock_release: give the lock up (only our own).
MATCH (l:IngestLock {name: $name, owner: $owner})
DELETE l;
