// name: stats
// Node count per label and relationship count per type (answered from the count store).
RETURN 'node' AS kind, 'Paper' AS name, COUNT { (:Paper) } AS count
UNION ALL RETURN 'node' AS kind, 'Claim' AS name, COUNT { (:Claim) } AS count
UNION ALL RETURN 'node' AS kind, 'Source' AS name, COUNT { (:Source) } AS count
UNION ALL RETURN 'node' AS kind, 'Document' AS name, COUNT { (:Document) } AS count
UNION ALL RETURN 'node' AS kind, 'IngestRun' AS name, COUNT { (:IngestRun) } AS count
UNION ALL RETURN 'relationship' AS kind, 'CITES' AS name, COUNT { ()-[:CITES]->() } AS count
UNION ALL RETURN 'relationship' AS kind, 'MAKES' AS name, COUNT { ()-[:MAKES]->() } AS count
UNION ALL RETURN 'relationship' AS kind, 'CHECKED_AGAINST' AS name, COUNT { ()-[:CHECKED_AGAINST]->() } AS count
UNION ALL RETURN 'relationship' AS kind, 'SUPPORTS' AS name, COUNT { ()-[:SUPPORTS]->() } AS count
UNION ALL RETURN 'relationship' AS kind, 'REFERS_TO' AS name, COUNT { ()-[:REFERS_TO]->() } AS count
UNION ALL RETURN 'relationship' AS kind, 'MENTIONS' AS name, COUNT { ()-[:MENTIONS]->() } AS count;
