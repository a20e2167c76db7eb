// name: at_risk_claims
// Claims resting on weak support: claims that cite a work which, directly or through what it
// builds on (up to `depth` citation steps), leads to a work whose own checked claims are mostly
// not supported (more than `min_share` of them unsupported, of at least `min_checked` checked).
// One row per claim and weak work, with the chain from the cited work to the weak one. A claim
// cites a work when one of its sources resolves to it in the citing page's reference list.
// Checked claims are those `claim_support_summary` counts as supported, checked_unlisted or
// unsupported; unsupported ones are those `unsupported_claims` lists.
//
// param paper: paper = null — only claims this paper makes (null: every paper's claims)
// param depth: integer 0..3 = 1 — citation steps from the cited work to the weak one (0: only the cited work itself)
// param min_share: float 0..1 = 0.5 — a work is weak when more than this share of its checked claims is unsupported
// param min_checked: integer 1.. = 1 — only works with at least this many checked claims count
// param limit: integer 1.. = 100 — the most rows to return
//
// column title — the title of the paper making the claim
// column arxiv_id — its arXiv id, or null
// column claim_id — the claim's key in the graph
// column claim — the claim's text
// column cited_as — the source as the claim names it
// column weak_work — the title of the work whose checked claims are mostly unsupported
// column weak_paper_id — its key in the graph (usable as a `paper` parameter)
// column checked_claims — how many of its claims were checked
// column unsupported_claims — how many of those no checked source supports
// column chain — the works from the cited one to the weak one: maps of paper_id, title, year (one work: it is the weak one)
//
// Neo4j Browser:
// :param paper => '2405.01127';
// :param depth => 1;
// :param min_share => 0.5;
// :param min_checked => 1;
// :param limit => 100;

// Only a work with an unsupported claim can be weak (more than a share of at least one checked
// claim is unsupported): beyond one step, the search runs from the cited works towards those
// works and the papers citing them, found once from the claim-status index, instead of
// following every path from each cited work (a work's lineage three steps up holds thousands of
// papers). Depth 0 and 1 need neither.
CALL () {
  CALL () {
    WITH 1 AS needed WHERE $depth >= 2
    MATCH (:Claim {status: 'unsupported'})<-[:MAKES]-(a)
    RETURN DISTINCT a
  }
  WITH collect(a) AS candidates
  RETURN candidates, COLLECT { UNWIND candidates AS a MATCH (x)-[:CITES]->(a) RETURN DISTINCT x } AS citing_candidates
}
// The paper, or every paper when $paper is null (see unsupported_claims).
CALL () {
  MATCH (p:Paper)
  WHERE p.paper_id = $paper OR p.arxiv_id = $paper
  RETURN p
  UNION
  WITH $paper AS wanted
  WHERE wanted IS NULL
  MATCH (p:Paper)
  RETURN p
}
MATCH (p)-[:MAKES]->(c:Claim)-[:CITES]->(s:Source)-[:REFERS_TO]->(w:Paper)
WITH candidates, citing_candidates, w, collect({p: p, c: c, s: s}) AS citing
// The works within $depth citation steps of each cited work, itself included, that make claims
// (only they can be weak), each once. A path bound can't be a parameter: one branch per depth,
// guarded. Beyond one step: the works up to $depth - 1 steps away that cite a candidate.
CALL (w, candidates, citing_candidates) {
  WITH w WHERE EXISTS { (w)-[:MAKES]->() }
  RETURN w AS a
  UNION
  MATCH (w)-[:CITES]->(a) WHERE $depth = 1 AND EXISTS { (a)-[:MAKES]->() }
  RETURN a
  UNION
  MATCH (w)-[:CITES*0..1]->(x) WHERE $depth = 2
  WITH DISTINCT x WHERE x IN citing_candidates
  MATCH (x)-[:CITES]->(a) WHERE a IN candidates
  RETURN a
  UNION
  MATCH (w)-[:CITES*0..2]->(x) WHERE $depth = 3
  WITH DISTINCT x WHERE x IN citing_candidates
  MATCH (x)-[:CITES]->(a) WHERE a IN candidates
  RETURN a
}
// Each work's checks are counted once, however many claims lead to it.
WITH a, collect({w: w, citing: citing}) AS reaching
CALL (a) {
  MATCH (a)-[:MAKES]->(c:Claim)
  // The claim's support status as stored (cypher/claim_status.cypher).
  WITH c, c.status AS status
  RETURN count(CASE WHEN status IN ['supported', 'checked_unlisted', 'unsupported'] THEN 1 END) AS checked_claims,
         count(CASE WHEN status = 'unsupported' THEN 1 END) AS unsupported_claims
}
WITH a, reaching, checked_claims, unsupported_claims
WHERE checked_claims >= $min_checked AND unsupported_claims > $min_share * checked_claims
UNWIND reaching AS reach
WITH a, reach.w AS w, reach.citing AS citing, checked_claims, unsupported_claims
// The chain from the cited work to the weak one: the shortest (within $depth, as the weak work
// was found within it), ties by the works' keys.
CALL (w, a) {
  WITH w, a WHERE w = a
  RETURN [w] AS chain
  UNION
  MATCH path = ALL SHORTEST (w)-[:CITES]->{1,3}(a) WHERE w <> a
  WITH nodes(path) AS chain ORDER BY [n IN nodes(path) | n.paper_id] LIMIT 1
  RETURN chain
}
UNWIND citing AS use
// One row per claim, source and weak work, with its shortest chain (a source matched to two
// works may reach the weak one through either).
WITH use.p AS p, use.c AS c, use.s AS s, a, chain, checked_claims, unsupported_claims
ORDER BY size(chain), [n IN chain | n.paper_id]
WITH p, c, s, a, collect(chain)[0] AS chain, checked_claims, unsupported_claims
RETURN p.title AS title, p.arxiv_id AS arxiv_id, c.claim_id AS claim_id, c.text AS claim, s.key AS cited_as,
       a.title AS weak_work, a.paper_id AS weak_paper_id, checked_claims, unsupported_claims,
       [n IN chain | {paper_id: n.paper_id, title: n.title, year: n.year}] AS chain
ORDER BY title, p.paper_id, claim, claim_id, cited_as, weak_paper_id
LIMIT $limit
