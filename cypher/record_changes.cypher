// name: record_changes
// One transaction's change set, written in that transaction, so a run that
// stops half-way keeps the change sets of what it committed. Parallel lists, one entry per
// change ('' where a side is absent): a node per transaction, sized by what changed.
//
// param action: string — what the transaction did (write or retract)
// param batch: integer — the transaction's number in its run
// param changes: map — the change set's entries, by field (paperkg/graph/changes.py)
// param documents: list — doc_ids of the transaction's documents
// param run_id: string — the run's id
// param run_started: string — when the run began (ISO 8601, to the microsecond)
CREATE (cs:ChangeSet {run_id: $run_id, run_started: $run_started, batch: $batch, action: $action,
                      documents: $documents, committed_at: datetime()})
SET cs += $changes;
