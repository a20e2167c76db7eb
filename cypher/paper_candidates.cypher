// paper_candidates: existing Paper nodes that share an identifier with a work of a batch
// (arXiv id, DOI, normalised title with the year within one, or the fallback key). One row
// per match, `how` saying which identifier matched (0 arXiv id ... 3 fallback); the caller
// keeps each node's best match. Flat lookups per kind of identifier, not a subquery per
// work: at 6,000 works a batch this is several times faster. A title match with an arXiv id
// is left out for a work that has one (`identified`): the same id was found by the first
// lookup, and a different one conflicts, so such a row could only repeat or be refused.
// All rows come back as one list: a record per row cost the client more than the lookups.
CALL () {
  UNWIND $arxiv_ids AS key
  MATCH (p:Paper {arxiv_id: key.value})
  RETURN key.work AS work, 0 AS how, p.paper_id AS paper_id, p.arxiv_id AS arxiv_id, p.doi AS doi,
         p.title_norm AS title_norm, p.year AS year, p.fallback AS fallback
  UNION ALL
  UNWIND $dois AS key
  MATCH (p:Paper {doi: key.value})
  RETURN key.work AS work, 1 AS how, p.paper_id AS paper_id, p.arxiv_id AS arxiv_id, p.doi AS doi,
         p.title_norm AS title_norm, p.year AS year, p.fallback AS fallback
  UNION ALL
  UNWIND $titles AS key
  MATCH (p:Paper {title_norm: key.value})
  WHERE (key.year IS NULL OR p.year IS NULL OR abs(p.year - key.year) <= 1)
    AND NOT (key.identified AND p.arxiv_id IS NOT NULL)
  RETURN key.work AS work, 2 AS how, p.paper_id AS paper_id, p.arxiv_id AS arxiv_id, p.doi AS doi,
         p.title_norm AS title_norm, p.year AS year, p.fallback AS fallback
  UNION ALL
  UNWIND $fallbacks AS key
  MATCH (p:Paper {fallback: key.value})
  RETURN key.work AS work, 3 AS how, p.paper_id AS paper_id, p.arxiv_id AS arxiv_id, p.doi AS doi,
         p.title_norm AS title_norm, p.year AS year, p.fallback AS fallback
}
RETURN collect([work, how, paper_id, arxiv_id, doi, title_norm, year, fallback]) AS found;
