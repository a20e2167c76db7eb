// name: show_paper_cites
// The citations among them
//
// param ids: list — the keys of the nodes to read
MATCH (a:Paper)-[:CITES]->(b:Paper) WHERE a.paper_id IN $ids AND b.paper_id IN $ids
RETURN a.paper_id AS source, b.paper_id AS target
