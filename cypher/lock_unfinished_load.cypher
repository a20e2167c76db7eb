// name: lock_unfinished_load
// Mark (a run id) or unmark (null) the holder's bulk load as writing: a holder that stops
// before it unmarks leaves the mark to whoever takes the lock over (lock_take_over).
//
// param name: string — the lock's name
// param owner: string — the holder that took the lock
// param load: string = null — the bulk load's run id, or null once it has finished or undone what it wrote
MATCH (l:IngestLock {name: $name, owner: $owner})
SET l.unfinished_load = $load
RETURN l.owner AS owner;
