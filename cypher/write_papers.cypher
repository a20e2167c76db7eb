// write_papers: one row per work (the batch's mentions of it already combined). The row's
// properties replace the node's when its mention outranks the one that set them (a
// document's subject beats a list item, which beats a reference) or comes from the same
// document; otherwise they only fill gaps.
UNWIND $rows AS row
MERGE (p:Paper {paper_id: row.paper_id})
WITH p, row, properties(p) AS before,
     (p.props_rank IS NULL OR row.rank > p.props_rank OR p.props_doc = row.doc_id) AS owns
SET p += row.properties
SET p += CASE WHEN owns THEN {} ELSE before END
SET p.arxiv_id = coalesce(p.arxiv_id, row.arxiv_id),
    p.doi = coalesce(p.doi, row.doi),
    p.fallback = coalesce(p.fallback, row.fallback),
    p.props_rank = CASE WHEN owns THEN row.rank ELSE p.props_rank END,
    p.props_doc = CASE WHEN owns THEN row.doc_id ELSE p.props_doc END
WITH p, row
UNWIND row.doc_ids AS doc_id
MATCH (d:Document {doc_id: doc_id})
MERGE (d)-[:MENTIONS]->(p);
