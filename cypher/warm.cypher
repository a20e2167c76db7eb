// name: warm
// What the library's queries read, read once so that Neo4j's page cache holds it: every paper's
// properties and its two id indexes, the citations between papers, the claims with their
// properties, the checks and supports between claims and sources, the sources with the works
// they refer to, and the stored change sets. Neo4j Community has no warm-up of its own: after a
// start, the first query that needs a page waits while it is read from the store's files. Each
// statement names its part, the records it read and the property values among them. The
// MENTIONS are left out: they are the largest part of the store, and only `identity` reads them.
MATCH (p:Paper) WHERE p.paper_id IS NOT NULL
RETURN 'papers' AS part, count(*) AS records, sum(size(keys(properties(p)))) AS properties;
MATCH (p:Paper) WHERE p.arxiv_id IS NOT NULL
RETURN 'arXiv ids' AS part, count(*) AS records, 0 AS properties;
MATCH (:Paper)-[:CITES]->(:Paper)
RETURN 'citations' AS part, count(*) AS records, 0 AS properties;
MATCH (:Paper)-[:MAKES]->(c:Claim)
RETURN 'claims' AS part, count(*) AS records, sum(size(keys(properties(c)))) AS properties;
MATCH (:Claim)-[r:CHECKED_AGAINST]->(:Source)
RETURN 'checks' AS part, count(*) AS records, count(r.verdict) AS properties;
MATCH (:Source)-[:SUPPORTS]->(:Claim)
RETURN 'supports' AS part, count(*) AS records, 0 AS properties;
MATCH (s:Source)
RETURN 'sources' AS part, count(*) AS records, sum(size(keys(properties(s)))) AS properties;
MATCH (:Source)-[:REFERS_TO]->(:Paper)
RETURN 'sources matched to works' AS part, count(*) AS records, 0 AS properties;
MATCH (cs:ChangeSet)
RETURN 'change sets' AS part, count(*) AS records, sum(size(keys(properties(cs)))) AS properties;
