// name: clear_identity
// The unique identifiers of papers about to be reshaped, so that
// write_identity can give them to the nodes of their works.
//
// param paper_ids: list — paper_ids of the papers concerned
UNWIND $paper_ids AS paper_id
MATCH (p:Paper {paper_id: paper_id})
REMOVE p.arxiv_id, p.doi;
