// name: search_hits
// How many claims the full-text index finds for a search: the frequency of the benchmark's
// search words.
//
// param text: string — the search, as paperkg.search sends it
CALL db.index.fulltext.queryNodes('claim_text', $text) YIELD node
RETURN count(node) AS hits;
