// name: stored_size
// One run's change sets: how many nodes, entries and characters of strings they hold
// (bench/changes.py).
//
// param run_id: string — the run's id
MATCH (cs:ChangeSet {run_id: $run_id})
RETURN count(cs) AS change_sets, sum(size(cs.entity)) AS entries,
       sum(reduce(total = 0, name IN ['entity', 'key', 'before', 'after', 'paper', 'other', 'detail'] |
           total + reduce(n = 0, text IN cs[name] | n + size(text)))) AS characters;
