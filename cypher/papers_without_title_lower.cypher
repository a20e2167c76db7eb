// name: papers_without_title_lower
// Papers with a title but no lower-cased title (an offline import, a graph made by hand,
// or one from before the property existed); run with the schema.
MATCH (p:Paper) WHERE p.title_lower IS NULL AND p.title IS NOT NULL RETURN p.paper_id AS id;
