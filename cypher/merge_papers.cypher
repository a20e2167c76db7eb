// merge_papers: fold each duplicate Paper node into the node that survives, moving every
// relationship (provenance lists united, no duplicate edges) and keeping the survivor's
// properties where it has them. The duplicate's unique keys are cleared before they move.
UNWIND $pairs AS pair
MATCH (keep:Paper {paper_id: pair.keep}), (gone:Paper {paper_id: pair.gone})
WITH keep, gone, properties(gone) AS taken
REMOVE gone.arxiv_id, gone.doi
WITH keep, gone, taken
CALL (keep, gone) {
  MATCH (gone)-[old:CITES]->(other:Paper) WHERE other <> keep
  MERGE (keep)-[new:CITES]->(other)
  SET new.docs = coalesce(new.docs, []) + [doc IN old.docs WHERE NOT doc IN coalesce(new.docs, [])]
}
CALL (keep, gone) {
  MATCH (other:Paper)-[old:CITES]->(gone) WHERE other <> keep
  MERGE (other)-[new:CITES]->(keep)
  SET new.docs = coalesce(new.docs, []) + [doc IN old.docs WHERE NOT doc IN coalesce(new.docs, [])]
}
CALL (keep, gone) {
  MATCH (gone)-[old:MAKES]->(claim:Claim)
  MERGE (keep)-[new:MAKES]->(claim)
  SET new.docs = coalesce(new.docs, []) + [doc IN old.docs WHERE NOT doc IN coalesce(new.docs, [])]
}
CALL (keep, gone) {
  MATCH (source:Source)-[old:REFERS_TO]->(gone)
  MERGE (source)-[new:REFERS_TO]->(keep)
  SET new.docs = coalesce(new.docs, []) + [doc IN old.docs WHERE NOT doc IN coalesce(new.docs, [])]
}
CALL (keep, gone) {
  MATCH (document:Document)-[:MENTIONS]->(gone)
  MERGE (document)-[:MENTIONS]->(keep)
}
DETACH DELETE gone
// The survivor's own properties win; the duplicate fills the gaps (its unique keys included).
WITH keep, taken, properties(keep) AS kept
SET keep += taken
SET keep += kept;
