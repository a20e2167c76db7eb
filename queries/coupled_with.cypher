// name: coupled_with
// Papers bibliographically coupled with a paper: papers that cite some of the same works,
// with how many references they share and the Salton score, shared / sqrt(references of
// the paper × references of the other). Reference counts are those in the graph.
//
// param paper: paper — the paper whose coupled papers to find (arXiv id, DOI or paper_id)
// param min_count: integer 1.. = 1 — only papers sharing at least this many references
// param limit: integer 1.. = 100 — the most rows to return
//
// column title — the coupled paper's title
// column year — its publication year
// column arxiv_id — its arXiv id, or null
// column doi — its DOI, or null
// column paper_id — its key in the graph (usable as a `paper` parameter)
// column shared — how many works both papers cite
// column references — how many works in the graph the coupled paper cites
// column salton — shared / sqrt(references of the paper × references of the coupled paper), 4 decimals
//
// Neo4j Browser:
// :param paper => '2402.06618';
// :param min_count => 1;
// :param limit => 100;

MATCH (a:Paper)
WHERE a.paper_id = $paper OR a.arxiv_id = $paper
MATCH (a)-[:CITES]->(:Paper)<-[:CITES]-(b:Paper)
WHERE b <> a
WITH a, b, count(*) AS shared  // one CITES per pair of papers, so one row per shared work
WHERE shared >= $min_count
// The rows kept share at least as many references as the last of the first `limit`: counting
// the references of only those papers leaves the answer as it is.
WITH a, b, shared
ORDER BY shared DESC
WITH a, collect({paper: b, shared: shared}) AS ranked
WITH a, ranked, ranked[..$limit][-1].shared AS least
UNWIND [r IN ranked WHERE r.shared >= least] AS kept
WITH a, kept.paper AS b, kept.shared AS shared
// A Paper's outgoing CITES all lead to Papers (claims cite Sources), so degrees count references.
WITH b, shared, COUNT { (b)-[:CITES]->() } AS references, COUNT { (a)-[:CITES]->() } AS paper_references
RETURN b.title AS title, b.year AS year, b.arxiv_id AS arxiv_id, b.doi AS doi, b.paper_id AS paper_id,
       shared, references, round(shared / sqrt(toFloat(paper_references * references)), 4) AS salton
ORDER BY shared DESC, salton DESC, title, paper_id
LIMIT $limit
