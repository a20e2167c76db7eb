// name: guide_search
// The Finding by words slide's picture: the claims a search finds, with the paper making
// each, the sources each cites and what checking found
//
// param text: string — the search text, in Lucene's syntax
CALL db.index.fulltext.queryNodes('claim_text', $text) YIELD node AS c, score
WITH c ORDER BY score DESC LIMIT 10
MATCH made = (:Paper)-[:MAKES]->(c)
OPTIONAL MATCH cited = (c)-[:CITES|CHECKED_AGAINST]->(s:Source)
OPTIONAL MATCH support = (s)-[:SUPPORTS]->(c)
RETURN made, cited, support
