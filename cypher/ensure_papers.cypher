// ensure_papers: the nodes of works that evidence is about to move to.
UNWIND $paper_ids AS paper_id
MERGE (:Paper {paper_id: paper_id});
