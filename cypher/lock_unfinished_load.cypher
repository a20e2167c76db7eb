// name: lock_unfinished_load
// Mark (a run id) or unmark (null) a load of the holder's as unfinished: a holder that stops
// before it unmarks leaves the mark to whoever takes the lock over (lock_take_over), which
// finishes the load or undoes it, as its kind says, and then unmarks it.
//
// param name: string — the lock's name
// param owner: string — the holder that took the lock
// param load: string = null — the load's run id, or null once it is finished or undone
// param kind: string = null — 'bulk' (a bulk load, undone) or 'import' (an offline import, finished)
MATCH (l:IngestLock {name: $name, owner: $owner})
SET l.unfinished_load = $load, l.load_kind = $kind
RETURN l.owner AS owner;
