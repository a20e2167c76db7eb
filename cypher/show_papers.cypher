// name: show_papers
// The papers a picture draws
//
// param ids: list — the keys of the nodes to read
MATCH (p:Paper) WHERE p.paper_id IN $ids
RETURN p.paper_id AS id, p.title AS title, p.year AS year, p.arxiv_id AS arxiv_id, p.doi AS doi
