// name: lock_acquire
// Take the ingestion lock when nobody holds it; returns the holder either way.
//
// param holder: map — who takes the lock: owner, host, pid and process start
// param name: string — the lock's name
// param stale_after: integer — seconds without a heartbeat after which a holder is stale
MERGE (l:IngestLock {name: $name})
ON CREATE SET l += $holder, l.acquired_at = datetime(), l.heartbeat = datetime()
RETURN l.owner AS owner, l.host AS host, l.pid AS pid, l.process_start AS process_start,
       toString(l.acquired_at) AS acquired_at,
       l.heartbeat < datetime() - duration({seconds: $stale_after}) AS expired;
