// name: unfinished_loads
// The loads the ingestion lock marks as unfinished: each one's run id and kind ('bulk' or
// 'import'), and the holder that began it (host, pid; none for an imported lock). One whose
// holder is gone stopped before it finished: the next command finishes an import or removes
// what a bulk load wrote (paperkg.run.lock).
MATCH (l:IngestLock)
WHERE l.unfinished_load IS NOT NULL
RETURN l.unfinished_load AS load, l.load_kind AS kind, l.host AS host, l.pid AS pid
ORDER BY load;
