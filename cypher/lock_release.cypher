// name: lock_release
// Give the lock up (only our own), unless it marks a bulk load that did not finish and whose
// writes could not be removed: it then stays, for the next holder to take over and remove them.
//
// param name: string — the lock's name
// param owner: string — the holder that took the lock
MATCH (l:IngestLock {name: $name, owner: $owner})
WHERE l.unfinished_load IS NULL
DELETE l;
