// paper_candidates: existing Paper nodes that share an identifier with each work of a batch
// (arXiv id, DOI, normalised title with the year within one, or the fallback key).
UNWIND $works AS work
CALL (work) {
  UNWIND work.arxiv_ids AS id
  MATCH (p:Paper {arxiv_id: id})
  RETURN p, 0 AS how
  UNION
  UNWIND work.dois AS id
  MATCH (p:Paper {doi: id})
  RETURN p, 1 AS how
  UNION
  UNWIND work.titles AS title
  MATCH (p:Paper {title_norm: title.norm})
  WHERE title.year IS NULL OR p.year IS NULL OR abs(p.year - title.year) <= 1
  RETURN p, 2 AS how
  UNION
  UNWIND work.fallbacks AS id
  MATCH (p:Paper {fallback: id})
  RETURN p, 3 AS how
}
WITH work, p, min(how) AS how
ORDER BY how, p.paper_id
RETURN work.index AS index,
       collect({paper_id: p.paper_id, arxiv_id: p.arxiv_id, doi: p.doi, title_norm: p.title_norm,
                year: p.year, fallback: p.fallback}) AS nodes;
