// name: at_risk_claims
// Claims resting on weak support: claims that cite a work which, directly or through what it
// builds on (up to `depth` citation steps), leads to a work whose own checked claims are mostly
// not supported (more than `min_share` of them unsupported, of at least `min_checked` checked).
// One row per claim and weak work, with the chain from the cited work to the weak one. A claim
// cites a work when one of its sources resolves to it in the citing page's reference list.
// Checked claims are those `claim_support_summary` counts as supported, checked_unlisted or
// unsupported; unsupported ones are those `unsupported_claims` lists.
//
// precomputed
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

// A work's counts of checked and unsupported claims are stored on it (cypher/claim_counts.cypher,
// indexed), so the weak works are known before the search. Beyond one step they are found once,
// with the papers citing them, and the search from each cited work runs only `depth - 1` steps,
// to a paper citing one of them, instead of following every path (a work's lineage three steps
// up holds thousands of papers). Depth 0 and 1 need neither.
CALL () {
  CALL () {
    WITH 1 AS needed WHERE $depth >= 2
    MATCH (a:Paper)
    WHERE a.claims_checked >= $min_checked AND a.claims_unsupported > $min_share * a.claims_checked
    RETURN a
  }
  WITH collect(a) AS weak
  RETURN weak, COLLECT { UNWIND weak AS a MATCH (x)-[:CITES]->(a) RETURN DISTINCT x } AS citing_weak
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
WITH weak, citing_weak, w, collect({p: p, c: c, s: s}) AS citing
// The weak works within $depth citation steps of each cited work, itself included, each with
// its chain: the shortest, ties by the works' keys. A path bound can't be a parameter: one
// branch per depth, guarded. Beyond one step, the paths up to $depth - 1 steps long from the
// cited work to a paper citing a weak work (a few hundred from each cited work) hold every
// chain to a weak work, so no shortest-path search is needed.
CALL (w, weak, citing_weak) {
  CALL (w, weak, citing_weak) {
    WITH w WHERE w.claims_checked >= $min_checked AND w.claims_unsupported > $min_share * w.claims_checked
    RETURN w AS a, [w] AS chain
    UNION
    MATCH (w)-[:CITES]->(a)
    WHERE $depth = 1 AND a.claims_checked >= $min_checked AND a.claims_unsupported > $min_share * a.claims_checked
    RETURN a, [w, a] AS chain
    UNION
    MATCH path = (w)-[:CITES*0..1]->(x) WHERE $depth = 2 AND x IN citing_weak
    MATCH (x)-[:CITES]->(a) WHERE a IN weak
    RETURN a, nodes(path) + a AS chain
    UNION
    MATCH path = (w)-[:CITES*0..2]->(x) WHERE $depth = 3 AND x IN citing_weak
    MATCH (x)-[:CITES]->(a) WHERE a IN weak
    RETURN a, nodes(path) + a AS chain
  }
  WITH a, chain ORDER BY size(chain), [n IN chain | n.paper_id]
  RETURN a, collect(chain)[0] AS chain
}
WITH w, citing, a, chain, a.claims_checked AS checked_claims, a.claims_unsupported AS unsupported_claims
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
