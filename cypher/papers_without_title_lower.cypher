// name: papers_without_title_lower
// Papers with a title but no lower-cased title (an offline import, a graph made by hand,
// or one from before the property existed); run with the schema. One row holds them all: the
// driver reads a record at a time, which costs many times what the server spends on it.
MATCH (p:Paper) WHERE p.title_lower IS NULL AND p.title IS NOT NULL
RETURN collect(p.paper_id) AS ids;
