// show_paper_cites: the citations among them
MATCH (a:Paper)-[:CITES]->(b:Paper) WHERE a.paper_id IN $ids AND b.paper_id IN $ids
RETURN a.paper_id AS source, b.paper_id AS target
