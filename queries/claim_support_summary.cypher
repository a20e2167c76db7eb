// name: claim_support_summary
// Per paper, its claims by support status and kind: one row per status, always all six, in
// this order. `supported`: a checked source supports the claim. `checked_unlisted`: the page
// counts more checks (N) than it lists and none of the listed ones supports; the page shows
// no verdict for those and counts them as supported. `unsupported`: checked against listed
// sources, none supports. `unverifiable`: cites sources (listed, or M > 0), none checked.
// `uncited`: no source listed or counted, and basis `none given`/`reasoning` or a support
// note. `sources_missing`: no source listed or counted although the basis is `citation`.
// The first status that applies wins, so every claim has exactly one.
//
// precomputed
// param paper: paper = null — only this paper (null: every paper that makes claims)
// param limit: integer 1.. = 100 — the most papers to summarise (six rows each)
//
// column title — the paper's title
// column year — its publication year
// column arxiv_id — its arXiv id, or null
// column doi — its DOI, or null
// column status — supported, checked_unlisted, unsupported, unverifiable, uncited or sources_missing
// column claims — how many of its claims have this status
// column premise — of those, how many are Premises
// column interpretation — how many are Interpretations
// column no_kind — how many have no kind (claims known only from a support note)
// column substantial — how many the page marks as substantial
//
// Neo4j Browser:
// :param paper => '2310.05512';
// :param limit => 100;

// The paper, or every paper when $paper is null. The null guard sits on its own WITH so it
// is checked before the label scan, and a given paper costs one index lookup.
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
MATCH (p)-[:MAKES]->(c:Claim)
// The claim's support status is stored when it is written (cypher/claim_status.cypher).
WITH p, c, c.status AS status
WITH p, collect({status: status, kind: c.kind, substantial: c.substantial}) AS tallied
ORDER BY p.title, p.paper_id
LIMIT $limit
UNWIND range(0, 5) AS rank
WITH p, tallied, rank,
     ['supported', 'checked_unlisted', 'unsupported', 'unverifiable', 'uncited', 'sources_missing'][rank] AS status
WITH p, rank, status, [t IN tallied WHERE t.status = status] AS these
RETURN p.title AS title, p.year AS year, p.arxiv_id AS arxiv_id, p.doi AS doi, status,
       size(these) AS claims,
       size([t IN these WHERE t.kind = 'Premise']) AS premise,
       size([t IN these WHERE t.kind = 'Interpretation']) AS interpretation,
       size([t IN these WHERE t.kind IS NULL]) AS no_kind,
       size([t IN these WHERE t.substantial]) AS substantial
ORDER BY title, p.paper_id, rank
