// name: move_mentions
// A split node's mentions go, by evidence, to the nodes of their works.
//
// param moves: list — maps of an evidence key and the paper_id it now belongs to
UNWIND $moves AS move
MATCH (from:Paper {paper_id: move.from})<-[m:MENTIONS {key: move.key}]-(d:Document)
MATCH (to:Paper {paper_id: move.to})
CREATE (d)-[moved:MENTIONS]->(to)
SET moved = properties(m)
DELETE m;
