// name: refold_papers
// A paper's properties are what its documents say, each taken from the statement of the
// smallest precedence that states it (paperkg/load/transactions.py `precedence` is the order: the
// best-ranked document, ties by document id, then by evidence key), the others filling gaps.
// Identifiers ($kept) are resolution's, not the fold's. Run after a
// retraction or a merge, which may change any of them: a property only a withdrawn document
// stated disappears. (After a write, which only adds statements, refold_contested does less.)
// A row without `withdrawn` (a merge or split) folds every property again. A row with the
// statements a retraction withdrew folds again only the properties one of them stated and no
// remaining statement outranks: a withdrawn statement that is outranked was not the one the
// property held, and looking for one that outranks it stops at the first found, where
// refolding reads every statement of the paper (most statements of a popular paper come from
// references, which its own card or another reference outranks).
// Each property is taken from its best statement among those that state it: a popular paper
// has thousands of statements, and most properties only a few of them state. A property no
// statement states any more is removed (the best statement found is none).
// Setting a property to its current value writes nothing. `title_lower` and the claim counts
// are derived (title_lower.cypher, claim_counts.cypher, stored after the fold).
//
// param kept: list — identity and derived properties, which resolution and their own statements set and the fold leaves
// param papers: list — one row per paper: paper_id, and withdrawn: the statements withdrawn from it, [precedence, keys] each (null: fold every property)
// param unit_properties: list — properties a document states about a unit, not the paper
UNWIND $papers AS row
MATCH (p:Paper {paper_id: row.paper_id})
CALL (p, row) {
  WITH row WHERE row.withdrawn IS NULL
  MATCH (:Document)-[m:MENTIONS]->(p)
  UNWIND keys(m) AS key
  RETURN key
  UNION
  WITH row WHERE row.withdrawn IS NULL
  UNWIND keys(p) AS key
  RETURN key
  UNION
  UNWIND row.withdrawn AS withdrawn
  UNWIND [key IN withdrawn[1] WHERE NOT key IN $unit_properties] AS key
  WITH key, withdrawn[0] AS precedence
  WHERE NOT EXISTS {
    MATCH (:Document)-[m:MENTIONS]->(p)
    WHERE m[key] IS NOT NULL AND m.precedence < precedence
  }
  RETURN key
}
WITH p, key WHERE NOT key IN $unit_properties AND NOT key IN $kept
CALL (p, key) {
  OPTIONAL MATCH (:Document)-[m:MENTIONS]->(p)
  WHERE m[key] IS NOT NULL
  WITH m ORDER BY m.precedence LIMIT 1
  SET p[key] = m[key]
};
