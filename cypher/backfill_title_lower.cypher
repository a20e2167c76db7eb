// name: backfill_title_lower
// The lower-cased title find_papers searches, for papers written
// without it (an offline import, or a graph from before the property existed). Run with
// the schema; on a graph that has it everywhere this only reads.
MATCH (p:Paper)
WHERE p.title_lower IS NULL AND p.title IS NOT NULL
SET p.title_lower = left(toLower(p.title), 4000)
