// record_changes: one transaction's change set, written in that transaction, so a run that
// stops half-way keeps the change sets of what it committed. Parallel lists, one entry per
// change ('' where a side is absent): a node per transaction, sized by what changed.
CREATE (cs:ChangeSet {run_id: $run_id, run_started: $run_started, batch: $batch, action: $action,
                      documents: $documents, committed_at: datetime()})
SET cs += $changes;
