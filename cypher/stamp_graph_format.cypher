// name: stamp_graph_format
// Stamp the graph with the format this paperkg writes, unless it carries a stamp already.
//
// param name: string — the stamp's name (one stamp a graph)
// param version: integer — the graph format version this release writes
// param written_by: string — this release (paperkg's version)
MERGE (f:GraphFormat {name: $name})
ON CREATE SET f.version = $version, f.written_by = $written_by, f.stamped_at = datetime()
RETURN f.version AS version;
