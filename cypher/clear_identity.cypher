// clear_identity: the unique identifiers of papers about to be reshaped, so that
// write_identity can give them to the nodes of their works.
UNWIND $paper_ids AS paper_id
MATCH (p:Paper {paper_id: paper_id})
REMOVE p.arxiv_id, p.doi;
