// name: merge_papers
// Fold each duplicate Paper node into the node that survives, moving every
// relationship (provenance lists united, no duplicate edges). The documents' statements
// move with their MENTIONS (one per evidence, so none is already on the survivor);
// refold_papers then recomputes the survivor's properties.
//
// param pairs: list — [duplicate, survivor] paper_id pairs
UNWIND $pairs AS pair
MATCH (keep:Paper {paper_id: pair.keep}), (gone:Paper {paper_id: pair.gone})
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
  MATCH (document:Document)-[old:MENTIONS]->(gone)
  CREATE (document)-[new:MENTIONS]->(keep)
  SET new = properties(old)
}
DETACH DELETE gone;
