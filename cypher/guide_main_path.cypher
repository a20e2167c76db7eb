// name: guide_main_path
// The Influence slide's picture: the main path `paperkg analyze` marked, step by step
MATCH path = (a:Paper)<-[:CITES]-(b:Paper)
WHERE a.main_path IS NOT NULL AND b.main_path = a.main_path + 1
RETURN path
LIMIT 200
