// name: identity
// Why a work is one node: each mention of it, with the document and lines it comes from, the
// evidence it states (arXiv id, DOI, normalised title, year) and the rule that joins it to
// the work (paperkg.graph.identity): the arXiv id; a DOI stated together with the work's
// arXiv id (the documents that state both are listed); the work's own DOI; a title with a
// year within one of the work's other evidence; a title without a year, which only the one
// work carrying it takes; or a fallback key, an entry that is only ever itself.
//
// param paper: paper — the paper (arXiv id, DOI or paper_id)
// param limit: integer 1.. = 1000 — the most rows to return
//
// column paper_id — the work's key (a function of its evidence)
// column arxiv_id — the work's arXiv id, or null
// column dois — every DOI the work is known by
// column rule — the rule that joins this evidence to the work
// column shown_by — the documents that show the join (for a DOI: those stating it with the arXiv id)
// column document — the document of the mention (its path)
// column kind — card or page
// column lines — the lines of the document that mention the work this way
// column evidence_arxiv_id — the arXiv id the mention states, or null
// column evidence_doi — the DOI the mention states, or null
// column evidence_title — the normalised title the mention states, or null
// column evidence_year — the year the mention states with its title, or null
//
// Neo4j Browser:
// :param paper => '2402.06618';
// :param limit => 1000;

MATCH (p:Paper)
WHERE p.paper_id = $paper OR p.arxiv_id = $paper
MATCH (d:Document)-[m:MENTIONS]->(p)
MATCH (e:Evidence {key: m.key})
WITH p, d, m, e,
     COLLECT { MATCH (d2:Document)-[m2:MENTIONS]->(p)
               MATCH (both:Evidence {key: m2.key})
               WHERE e.doi IS NOT NULL AND both.doi = e.doi AND both.arxiv_id = p.arxiv_id
               RETURN DISTINCT d2.path ORDER BY d2.path } AS stated_together,
     COLLECT { MATCH (near:Evidence)-[:OF]->(p)
               WHERE e.title_norm IS NOT NULL AND near.title_norm = e.title_norm AND near.key <> e.key
                 AND (near.arxiv_id IS NOT NULL OR near.doi IS NOT NULL)
                 AND (e.year IS NULL OR near.year IS NULL OR abs(near.year - e.year) <= 1)
               RETURN DISTINCT coalesce('arXiv ' + near.arxiv_id, 'DOI ' + near.doi) AS id ORDER BY id } AS near_ids
WITH p, d, m, e, stated_together, near_ids,
     CASE
       WHEN e.arxiv_id IS NOT NULL THEN 'arXiv id'
       WHEN e.doi IS NOT NULL AND size(stated_together) > 0 THEN 'DOI stated with the arXiv id'
       WHEN e.doi IS NOT NULL AND e.doi IN coalesce(p.dois, []) AND p.arxiv_id IS NULL THEN 'DOI'
       WHEN e.title_norm IS NOT NULL AND e.year IS NOT NULL
         THEN 'title and year within one' + CASE WHEN size(near_ids) > 0
                                                 THEN ' of ' + reduce(s = '', id IN near_ids | s + CASE s WHEN '' THEN '' ELSE ', ' END + id)
                                                 ELSE '' END
       WHEN e.title_norm IS NOT NULL THEN 'title without a year: the one work with this title'
       ELSE 'fallback: an entry that is only itself'
     END AS rule
RETURN p.paper_id AS paper_id, p.arxiv_id AS arxiv_id, coalesce(p.dois, []) AS dois, rule,
       CASE WHEN rule = 'DOI stated with the arXiv id' THEN stated_together ELSE [] END AS shown_by,
       d.path AS document, d.kind AS kind, m.lines AS lines, e.arxiv_id AS evidence_arxiv_id,
       e.doi AS evidence_doi, e.title_norm AS evidence_title, e.year AS evidence_year
ORDER BY rule, document, lines
LIMIT $limit
