// name: changes_since
// What the runs changed in the knowledge since a point: works added, removed, merged and
// split (with the identity evidence), CITES added and removed, claims added, removed and
// whose status changed, checks added, removed and whose verdict flipped, sources newly
// matched to a work. Net of changes that cancelled each other: per thing, its state before
// the first change in the window and after the last; a thing that came back to where it was
// is not listed. Each transaction of a run stores its change set (`ChangeSet` nodes), so a
// run that stopped half-way shows what it committed.
//
// param since: string = null — an ISO date or date-time (UTC): changes committed at or after it (null: all)
// param after_run: string = null — a run id: only changes of the runs after that one
// param run: string = null — a run id: only that run's changes
// param paper: string = null — only changes concerning this paper (its paper_id or arXiv id)
// param limit: integer 1.. = 1000 — the most rows to return
//
// column entity — work, merge, cites, claim, check or source
// column what — added, removed, changed (a claim's status), flipped (a check's verdict), merged, split, matched, unmatched or rematched (a source)
// column key — the thing: a paper_id, `citing -> cited`, a claim_id, `claim_id | source_id` or a source_id
// column before — its state before (a claim's status, a check's verdict, the work a source referred to, the node a paper was merged into); null: absent
// column after — its state after; null: absent
// column paper — the paper it concerns (a citation's citing work, a claim's or check's paper, a source's work)
// column other — the other paper (a citation's cited work, the work a check's source refers to, the node of a merge or split)
// column detail — what it is in words: a title, a claim's text, a source as cited, the evidence of a merge
// column runs — the runs whose changes make it, oldest first
//
// Neo4j Browser:
// :param since => null;
// :param after_run => null;
// :param run => null;
// :param paper => null;
// :param limit => 1000;

CALL () {
  OPTIONAL MATCH (part:ChangeSet {run_id: $after_run})
  WITH max(part.run_started) AS started
  OPTIONAL MATCH (run:IngestRun {run_id: $after_run})
  RETURN coalesce(run.run_started, started, run.started_at) AS mark
}
MATCH (cs:ChangeSet)
WHERE ($since IS NULL OR cs.committed_at >= datetime($since))
  AND ($run IS NULL OR cs.run_id = $run)
  AND ($after_run IS NULL OR (cs.run_started > mark AND cs.run_id <> $after_run))
UNWIND range(0, size(coalesce(cs.entity, [])) - 1) AS i
WITH cs, i ORDER BY cs.run_started, cs.batch, i
WITH cs.entity[i] AS entity, cs.key[i] AS key,
     collect({before: cs.before[i], after: cs.after[i], paper: cs.paper[i], other: cs.other[i],
              detail: cs.detail[i], run: cs.run_id}) AS steps
WITH entity, key, steps, head(steps) AS first, last(steps) AS final
WHERE first.before <> final.after
WITH entity, key, steps,
     CASE first.before WHEN '' THEN null ELSE first.before END AS before,
     CASE final.after WHEN '' THEN null ELSE final.after END AS after,
     head([step IN reverse(steps) WHERE step.paper <> '' | step.paper]) AS paper,
     head([step IN reverse(steps) WHERE step.other <> '' | step.other]) AS other,
     head([step IN reverse(steps) WHERE step.detail <> '' | step.detail]) AS detail
WHERE $paper IS NULL OR paper IN [$paper, 'arxiv:' + $paper] OR other IN [$paper, 'arxiv:' + $paper]
WITH entity, key, before, after, paper, other, detail, steps,
     CASE
       WHEN entity = 'merge' THEN CASE WHEN after IS NULL THEN 'split' ELSE 'merged' END
       WHEN entity = 'source' THEN CASE WHEN before IS NULL THEN 'matched' WHEN after IS NULL THEN 'unmatched'
                                         ELSE 'rematched' END
       WHEN before IS NULL THEN 'added'
       WHEN after IS NULL THEN 'removed'
       WHEN entity = 'check' THEN 'flipped'
       ELSE 'changed'
     END AS what
RETURN entity, what, key, before, after, paper, other, detail,
       reduce(runs = [], step IN steps | CASE WHEN step.run IN runs THEN runs ELSE runs + step.run END) AS runs
ORDER BY CASE entity WHEN 'work' THEN 0 WHEN 'merge' THEN 1 WHEN 'cites' THEN 2 WHEN 'claim' THEN 3
                     WHEN 'check' THEN 4 ELSE 5 END, key
LIMIT $limit
