// lock_acquire: take the ingestion lock when nobody holds it; returns the holder either way.
MERGE (l:IngestLock {name: $name})
ON CREATE SET l += $holder, l.acquired_at = datetime(), l.heartbeat = datetime()
RETURN l.owner AS owner, l.host AS host, l.pid AS pid, l.process_start AS process_start,
       toString(l.acquired_at) AS acquired_at,
       l.heartbeat < datetime() - duration({seconds: $stale_after}) AS expired;
