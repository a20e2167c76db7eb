// name: search_claims
// Claims found by words: in a claim's text or quotes, or in the note a checker wrote on one
// of its sources (the full-text indexes claim_text and check_note_text). The text is in
// Lucene's syntax: words (a claim matching more of them ranks higher), "phrases", AND, OR,
// NOT, a prefix (neuro*); a word with a hyphen or other punctuation is searched as its parts
// side by side. Case and accents do not matter ("Schölkopf" finds "Scholkopf"): the indexes'
// analyzer is Neo4j's standard-folding, which also leaves out English stop words (a, in, not,
// the, …). A claim's score is Lucene's relevance (BM25) of its text and quotes plus that of
// its best-matching check note, rounded to 4 places; the best match comes first, ties in
// the order of the claim's text and id. The filters apply to every match, so the best
// `limit` rows of a filtered search are exact.
//
// param text: search — the words to look for, in Lucene's syntax
// param status: string {supported|checked_unlisted|unsupported|unverifiable|uncited|sources_missing} = null — only claims with this status (null: any)
// param paper: paper = null — only claims this paper makes (null: every paper's claims)
// param since: integer = null — only claims of papers published in this year or later (null: any year)
// param until: integer = null — only claims of papers published in this year or earlier (null: any year)
// param limit: integer 1.. = 50 — the most rows to return
//
// column score — how well the claim matches (Lucene's relevance; higher is better)
// column claim — the claim's text
// column status — supported, checked_unlisted, unsupported, unverifiable, uncited or sources_missing
// column title — the title of the paper making the claim
// column year — its publication year
// column arxiv_id — its arXiv id, or null
// column paper_id — its key in the graph
// column claim_id — the claim's key in the graph
// column sources — the sources the claim cites or was checked against, sorted: maps of source (as cited), verdict (supported, not_supported, or null: not checked) and work (the title of the work it refers to, or null)
//
// Neo4j Browser:
// :param text => 'synthetic root*';
// :param status => null;
// :param paper => null;
// :param since => null;
// :param until => null;
// :param limit => 50;

// The paper, when one is asked for: one index lookup; the search then keeps its claims only.
OPTIONAL MATCH (wanted:Paper)
WHERE wanted.paper_id = $paper OR wanted.arxiv_id = $paper
WITH wanted
WHERE $paper IS NULL OR wanted IS NOT NULL
CALL () {
  CALL db.index.fulltext.queryNodes('claim_text', $text) YIELD node, score
  RETURN node AS c, score, 'claim' AS part
  UNION ALL
  CALL db.index.fulltext.queryRelationships('check_note_text', $text) YIELD relationship, score
  RETURN startNode(relationship) AS c, score, 'check' AS part
}
// The claim's own score plus its best check note's.
WITH wanted, c, part, max(score) AS score
WITH wanted, c, sum(score) AS score
MATCH (p:Paper)-[:MAKES]->(c)
WHERE (wanted IS NULL OR p = wanted) AND ($status IS NULL OR c.status = $status)
  AND ($since IS NULL OR p.year >= $since) AND ($until IS NULL OR p.year <= $until)
// The rows are chosen first, so the sources are read for those alone.
WITH p, c, round(score, 4) AS score
ORDER BY score DESC, c.text, c.claim_id
LIMIT $limit
RETURN score, c.text AS claim, c.status AS status, p.title AS title, p.year AS year, p.arxiv_id AS arxiv_id,
       p.paper_id AS paper_id, c.claim_id AS claim_id,
       COLLECT {
         MATCH (c)-[:CITES|CHECKED_AGAINST]->(s:Source)
         WITH DISTINCT s
         OPTIONAL MATCH (c)-[check:CHECKED_AGAINST]->(s)
         OPTIONAL MATCH (s)-[:REFERS_TO]->(w:Paper)
         RETURN {source: s.key, verdict: check.verdict, work: w.title}
         ORDER BY s.key, s.source_id
       } AS sources
ORDER BY score DESC, claim, claim_id
