// name: changes_since
// What the runs changed in the knowledge since a point: works added, removed, merged and
// split (with the identity evidence), CITES added and removed, claims added, removed and
// whose status changed, checks added, removed and whose verdict flipped, sources newly
// matched to a work. Net of changes that cancelled each other: per thing, its state before
// the first change in the window and after the last; a thing that came back to where it was
// is not listed. Each transaction of a run stores its change set (`ChangeSet` nodes), so a
// run that stopped half-way shows what it committed. A run that built the whole graph (a
// first ingest into an empty graph, or an offline import) has one "whole" change set that
// holds counts only (paperkg/graph/changes.py): in a window that holds it, what that run added
// is read from the graph (everything in it, as it is now, or for the run itself as it was
// before the next run changed it); with a paper, only what is around that paper is read, so
// the cost follows the paper and the history, not the graph.
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
  // The things stored changes name, each with its changes in order: those in the window
  // (in_window) and, for a whole run itself, those after it (what a later run found is what the
  // whole run had left). Their number follows the history, not the graph.
  CALL (mark, origin) {
    MATCH (cs:ChangeSet)
    WITH cs, ($since IS NULL OR cs.committed_at >= datetime($since))
      AND ($run IS NULL OR cs.run_id = $run)
      AND ($after_run IS NULL OR (cs.run_started > mark AND cs.run_id <> $after_run)) AS in_window
    WHERE in_window OR (origin IS NOT NULL AND $run IS NOT NULL AND cs.run_started > origin)
    UNWIND range(0, size(coalesce(cs.entity, [])) - 1) AS i
    WITH cs.entity[i] AS entity, cs.key[i] AS key,
         {before: cs.before[i], after: cs.after[i], paper: cs.paper[i], other: cs.other[i],
          detail: cs.detail[i], run: cs.run_id, in_window: in_window} AS step
      ORDER BY cs.run_started, cs.batch, i
    WITH entity, key, collect(step) AS stored
    RETURN collect({entity: entity, key: key, stored: stored}) AS named
  }
  WITH origin, origin_run, named, CASE WHEN $paper IS NULL THEN null ELSE [$paper, 'arxiv:' + $paper] END AS ids
  CALL (origin, named, ids) {
    // A thing stored changes name, unless none of them can concern the paper asked for; its
    // state now (a whole run's additions are read from the graph), looked up by its key.
    UNWIND named AS thing
    WITH origin, thing WHERE ids IS NULL
      OR any(step IN thing.stored WHERE step.paper IN ids OR step.other IN ids)
      OR all(step IN thing.stored WHERE step.paper = '' OR step.other = '')
    OPTIONAL CALL (origin, thing) {
      WITH origin, thing WHERE origin IS NOT NULL AND thing.entity = 'work'
      MATCH (p:Paper {paper_id: thing.key})
      RETURN p, null AS q, null AS c, null AS r, null AS s
      UNION ALL
      WITH origin, thing WHERE origin IS NOT NULL AND thing.entity = 'cites'
      WITH split(thing.key, ' -> ') AS pair
      MATCH (p:Paper {paper_id: pair[0]})-[:CITES]->(q:Paper {paper_id: pair[1]})
      RETURN p, q, null AS c, null AS r, null AS s
      UNION ALL
      WITH origin, thing WHERE origin IS NOT NULL AND thing.entity = 'claim'
      MATCH (c:Claim {claim_id: thing.key})
      RETURN null AS p, null AS q, c, null AS r, null AS s
      UNION ALL
      WITH origin, thing WHERE origin IS NOT NULL AND thing.entity = 'check'
      WITH split(thing.key, ' | ') AS pair
      MATCH (c:Claim {claim_id: pair[0]})-[r:CHECKED_AGAINST]->(s:Source {source_id: pair[1]})
      RETURN null AS p, null AS q, c, r, s
      UNION ALL
      WITH origin, thing WHERE origin IS NOT NULL AND thing.entity = 'source'
      MATCH (s:Source {source_id: thing.key})
      RETURN null AS p, null AS q, null AS c, null AS r, s
    }
    RETURN thing.entity AS entity, thing.key AS key, thing.stored AS stored, p, q, c, r, s
    UNION ALL
    // What the graph holds now that no stored change names, read only for a window that holds a
    // whole run: everything, or what is around the paper asked for.
    WITH origin, named, ids WHERE origin IS NOT NULL
    WITH ids, [thing IN named | thing.entity + ' ' + thing.key] AS named_keys
    CALL (ids, named_keys) {
      // Every thing that has a state and that no stored change names, in the order of its key,
      // each kind only as far as the answer can reach (`limit` rows): the index order is read,
      // not the whole graph. The order of (citing, cited) ids is the order of their keys: a
      // paper_id holds no whitespace or control character, so no id's continuation sorts below
      // the ' -> ' that follows another.
      WITH named_keys WHERE ids IS NULL
      CALL (named_keys) {
        MATCH (p:Paper) WHERE p.paper_id IS NOT NULL AND NOT 'work ' + p.paper_id IN named_keys
        WITH p ORDER BY p.paper_id LIMIT $limit
        RETURN 'work' AS entity, p, null AS q, null AS c, null AS r, null AS s
        UNION ALL
        MATCH (p:Paper)-[:CITES]->(q:Paper)
        WHERE p.paper_id IS NOT NULL AND NOT 'cites ' + p.paper_id + ' -> ' + q.paper_id IN named_keys
        WITH p, q ORDER BY p.paper_id, q.paper_id LIMIT $limit
        RETURN 'cites' AS entity, p, q, null AS c, null AS r, null AS s
        UNION ALL
        MATCH (c:Claim)
        WHERE c.claim_id IS NOT NULL AND c.status IS NOT NULL AND NOT 'claim ' + c.claim_id IN named_keys
        WITH c ORDER BY c.claim_id LIMIT $limit
        RETURN 'claim' AS entity, null AS p, null AS q, c, null AS r, null AS s
        UNION ALL
        MATCH (c:Claim)-[r:CHECKED_AGAINST]->(s:Source)
        WHERE c.claim_id IS NOT NULL AND r.verdict IS NOT NULL
          AND NOT 'check ' + c.claim_id + ' | ' + s.source_id IN named_keys
        WITH c, r, s ORDER BY c.claim_id, s.source_id LIMIT $limit
        RETURN 'check' AS entity, null AS p, null AS q, c, r, s
        UNION ALL
        MATCH (s:Source)
        WHERE s.source_id IS NOT NULL AND EXISTS { (s)-[:REFERS_TO]->(:Paper) }
          AND NOT 'source ' + s.source_id IN named_keys
        WITH s ORDER BY s.source_id LIMIT $limit
        RETURN 'source' AS entity, null AS p, null AS q, null AS c, null AS r, s
      }
      RETURN entity, p, q, c, r, s
      UNION ALL
      WITH ids WHERE ids IS NOT NULL
      CALL (ids) {
        MATCH (p:Paper) WHERE p.paper_id IN ids
        RETURN 'work' AS entity, p, null AS q, null AS c, null AS r, null AS s
        UNION
        MATCH (p:Paper)-[:CITES]->(q:Paper) WHERE p.paper_id IN ids
        RETURN 'cites' AS entity, p, q, null AS c, null AS r, null AS s
        UNION
        MATCH (p:Paper)-[:CITES]->(q:Paper) WHERE q.paper_id IN ids
        RETURN 'cites' AS entity, p, q, null AS c, null AS r, null AS s
        UNION
        MATCH (x:Paper)-[:MAKES]->(c:Claim) WHERE x.paper_id IN ids
        RETURN 'claim' AS entity, null AS p, null AS q, c, null AS r, null AS s
        UNION
        MATCH (x:Paper)-[:MAKES]->(c:Claim)-[r:CHECKED_AGAINST]->(s:Source) WHERE x.paper_id IN ids
        RETURN 'check' AS entity, null AS p, null AS q, c, r, s
        UNION
        MATCH (c:Claim)-[r:CHECKED_AGAINST]->(s:Source)-[:REFERS_TO]->(w:Paper) WHERE w.paper_id IN ids
        RETURN 'check' AS entity, null AS p, null AS q, c, r, s
        UNION
        MATCH (s:Source)-[:REFERS_TO]->(w:Paper) WHERE w.paper_id IN ids
        RETURN 'source' AS entity, null AS p, null AS q, null AS c, null AS r, s
      }
      RETURN entity, p, q, c, r, s
    }
    WITH named_keys, entity, p, q, c, r, s,
         CASE entity
           WHEN 'work' THEN p.paper_id
           WHEN 'cites' THEN p.paper_id + ' -> ' + q.paper_id
           WHEN 'claim' THEN c.claim_id
           WHEN 'check' THEN c.claim_id + ' | ' + s.source_id
           ELSE s.source_id
         END AS key
    WHERE NOT entity + ' ' + key IN named_keys
    RETURN entity, key, [] AS stored, p, q, c, r, s
  }
  // A thing's state now, as paperkg/graph/changes.py records it ('' for absent).
  WITH origin, origin_run, entity, key, stored, p, q, c, r, s,
       head(COLLECT { MATCH (m:Paper)-[:MAKES]->(c) RETURN m.paper_id AS id ORDER BY id LIMIT 1 }) AS claim_paper,
       head(COLLECT { MATCH (s)-[:REFERS_TO]->(w:Paper) RETURN w.paper_id AS id ORDER BY id LIMIT 1 }) AS source_work
  WITH origin, origin_run, entity, key, stored,
       CASE
         WHEN entity = 'work' AND p IS NOT NULL
           THEN {after: 'present', paper: p.paper_id, other: '', detail: coalesce(p.title, '')}
         WHEN entity = 'cites' AND q IS NOT NULL
           THEN {after: 'present', paper: p.paper_id, other: q.paper_id, detail: ''}
         WHEN entity = 'claim' AND c IS NOT NULL
           THEN {after: coalesce(c.status, ''), paper: coalesce(claim_paper, ''), other: '',
                 detail: left(coalesce(c.text, ''), 200)}
         WHEN entity = 'check' AND r IS NOT NULL
           THEN {after: coalesce(r.verdict, ''), paper: coalesce(claim_paper, ''), other: coalesce(source_work, ''),
                 detail: coalesce(s.key, '')}
         WHEN entity = 'source' AND source_work IS NOT NULL
           THEN {after: source_work, paper: source_work, other: '', detail: coalesce(s.key, '')}
       END AS state
  WITH origin, entity, key, [step IN stored WHERE step.in_window] AS stored_in_window,
       [step IN stored WHERE NOT step.in_window] AS later,
       CASE WHEN state IS NULL THEN null ELSE state {.*, before: '', run: origin_run} END AS now
  // Net of each thing's changes: its state before the first change in the window and after the
  // last (with a whole run, before it nothing was, and after it is what the graph holds or what
  // a later run found).
  WITH entity, key, later, CASE WHEN now IS NULL THEN [] ELSE [now] END + stored_in_window AS steps,
       CASE WHEN origin IS NULL OR entity = 'merge' THEN head(stored_in_window).before ELSE '' END AS was,
       CASE
         WHEN origin IS NULL OR entity = 'merge' THEN last(stored_in_window).after
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
  WITH entity, key, before, after, paper, other, detail,
       reduce(runs = [], step IN steps | CASE WHEN step.run IN runs THEN runs ELSE runs + step.run END) AS runs,
       CASE
         WHEN entity = 'merge' THEN CASE WHEN after IS NULL THEN 'split' ELSE 'merged' END
         WHEN entity = 'source' THEN CASE WHEN before IS NULL THEN 'matched' WHEN after IS NULL THEN 'unmatched'
                                           ELSE 'rematched' END
         WHEN before IS NULL THEN 'added'
         WHEN after IS NULL THEN 'removed'
         WHEN entity = 'check' THEN 'flipped'
         ELSE 'changed'
       END AS what
  RETURN entity, what, key, before, after, paper, other, detail, runs
  // No rows: the union makes the rows that leave this subquery hold only the columns above, so
  // the sort below keeps those and not every variable the query bound on the way (Neo4j's
  // slotted runtime carries each one in every row).
  UNION ALL
  UNWIND [] AS none
  RETURN none AS entity, none AS what, none AS key, none AS before, none AS after, none AS paper, none AS other,
         none AS detail, none AS runs
}
RETURN entity, what, key, before, after, paper, other, detail, runs
ORDER BY CASE entity WHEN 'work' THEN 0 WHEN 'merge' THEN 1 WHEN 'cites' THEN 2 WHEN 'claim' THEN 3
                     WHEN 'check' THEN 4 ELSE 5 END, key
LIMIT $limit
