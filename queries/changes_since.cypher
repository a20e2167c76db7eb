// name: changes_since
// What the runs changed in the knowledge since a point: works added, removed, merged and
// split (with the identity evidence), CITES added and removed, claims added, removed and
// whose status changed, checks added, removed and whose verdict flipped, sources newly
// matched to a work. Net of changes that cancelled each other: per thing, its state before
// the first change in the window and after the last; a thing that came back to where it was
// is not listed. Each transaction of a run stores its change set (`ChangeSet` nodes), so a
// run that stopped half-way shows what it committed. A run that built the whole graph (a
// first ingest into an empty graph, or an offline import) has one "whole" change set that
// holds counts only (ingest/graph/changes.py): in a window that holds it, what that run added
// is read from the graph (everything in it, as it is now, or for the run itself as it was
// before the next run changed it).
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
// The whole change set the window holds, if any: it is the first change set (its run started
// on a graph without knowledge or history).
CALL () {
  OPTIONAL MATCH (origin:ChangeSet {whole: true})
  WHERE $after_run IS NULL
    AND ($since IS NULL OR origin.committed_at >= datetime($since))
    AND ($run IS NULL OR origin.run_id = $run)
  WITH origin ORDER BY origin.run_started DESC LIMIT 1
  RETURN origin.run_started AS origin, origin.run_id AS origin_run
}
CALL (mark, origin, origin_run) {
  // Each stored change in the window (in_window) and, for a whole run itself, each change
  // after it (what a later run found is what the whole run had left).
  MATCH (cs:ChangeSet)
  WITH cs, ($since IS NULL OR cs.committed_at >= datetime($since))
    AND ($run IS NULL OR cs.run_id = $run)
    AND ($after_run IS NULL OR (cs.run_started > mark AND cs.run_id <> $after_run)) AS in_window
  WHERE in_window OR (origin IS NOT NULL AND $run IS NOT NULL AND cs.run_started > origin)
  UNWIND range(0, size(coalesce(cs.entity, [])) - 1) AS i
  RETURN cs.entity[i] AS entity, cs.key[i] AS key, cs.run_started AS started, cs.batch AS batch, i,
         {before: cs.before[i], after: cs.after[i], paper: cs.paper[i], other: cs.other[i],
          detail: cs.detail[i], run: cs.run_id, in_window: in_window, now: false} AS step
  UNION ALL
  // What the graph holds now, read only for a window that holds a whole run (its states as
  // ingest/graph/changes.py records them).
  WITH origin WHERE origin IS NOT NULL
  CALL () {
    MATCH (p:Paper)
    RETURN 'work' AS entity, p.paper_id AS key, 'present' AS after, p.paper_id AS paper, '' AS other,
           coalesce(p.title, '') AS detail
    UNION ALL
    MATCH (a:Paper)-[:CITES]->(b:Paper)
    RETURN 'cites' AS entity, a.paper_id + ' -> ' + b.paper_id AS key, 'present' AS after, a.paper_id AS paper,
           b.paper_id AS other, '' AS detail
    UNION ALL
    MATCH (c:Claim)
    OPTIONAL MATCH (p:Paper)-[:MAKES]->(c)
    WITH c, min(p.paper_id) AS paper
    RETURN 'claim' AS entity, c.claim_id AS key, coalesce(c.status, '') AS after, coalesce(paper, '') AS paper,
           '' AS other, left(coalesce(c.text, ''), 200) AS detail
    UNION ALL
    MATCH (c:Claim)-[r:CHECKED_AGAINST]->(s:Source)
    OPTIONAL MATCH (p:Paper)-[:MAKES]->(c)
    WITH c, r, s, min(p.paper_id) AS paper
    OPTIONAL MATCH (s)-[:REFERS_TO]->(w:Paper)
    WITH c, r, s, paper, min(w.paper_id) AS work
    RETURN 'check' AS entity, c.claim_id + ' | ' + s.source_id AS key, coalesce(r.verdict, '') AS after,
           coalesce(paper, '') AS paper, coalesce(work, '') AS other, coalesce(s.key, '') AS detail
    UNION ALL
    MATCH (s:Source)-[:REFERS_TO]->(w:Paper)
    WITH s, min(w.paper_id) AS work
    RETURN 'source' AS entity, s.source_id AS key, work AS after, work AS paper, '' AS other,
           coalesce(s.key, '') AS detail
  }
  RETURN entity, key, origin AS started, 0 AS batch, 0 AS i,
         {before: '', after: after, paper: paper, other: other, detail: detail, run: origin_run,
          in_window: true, now: true} AS step
}
WITH origin, entity, key, step ORDER BY started, batch, i
WITH origin, entity, key, collect(step) AS all
WITH origin, entity, key, [s IN all WHERE s.in_window AND NOT s.now] AS stored,
     [s IN all WHERE NOT s.in_window] AS later, head([s IN all WHERE s.now]) AS now,
     [s IN all WHERE s.in_window] AS steps
WITH entity, key, steps, later,
     CASE WHEN origin IS NULL OR entity = 'merge' THEN head(stored).before ELSE '' END AS was,
     CASE
       WHEN origin IS NULL OR entity = 'merge' THEN last(stored).after
       WHEN $run IS NOT NULL AND size(later) > 0 THEN head(later).before
       ELSE coalesce(now.after, '')
     END AS will
WHERE was <> will
WITH entity, key, steps,
     CASE was WHEN '' THEN null ELSE was END AS before,
     CASE will WHEN '' THEN null ELSE will END AS after,
     head([step IN reverse(steps) + later WHERE step.paper <> '' | step.paper]) AS paper,
     head([step IN reverse(steps) + later WHERE step.other <> '' | step.other]) AS other,
     head([step IN reverse(steps) + later WHERE step.detail <> '' | step.detail]) AS detail
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
