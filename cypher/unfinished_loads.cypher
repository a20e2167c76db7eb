// name: unfinished_loads
// The bulk loads the ingestion lock marks as writing: each one's run id, and the holder that
// began it (host, pid). One whose holder is gone stopped before it finished; the next command
// that takes the lock removes what it wrote (paperkg.run.lock).
MATCH (l:IngestLock)
WHERE l.unfinished_load IS NOT NULL
RETURN l.unfinished_load AS load, l.host AS host, l.pid AS pid
ORDER BY load;
