// name: ensure_papers
// The nodes of works that evidence is about to move to.
//
// param paper_ids: list — paper_ids of the papers concerned
UNWIND $paper_ids AS paper_id
MERGE (:Paper {paper_id: paper_id});
