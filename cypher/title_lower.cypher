// name: title_lower
// The one definition of the lower-cased title find_papers searches, stored on each paper
// whose title a write, a refold, a retraction or an offline import may have set. A text
// index backs the search, and refuses very long values, so it keeps a title's first 4,000
// characters; a paper without a title has none.
//
// param papers: list — paper_ids of the papers whose title may have changed
UNWIND $papers AS paper_id
MATCH (p:Paper {paper_id: paper_id})
SET p.title_lower = left(toLower(p.title), 4000);
