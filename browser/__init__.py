"""Neo4j Browser's files: the style sheet, the guide and the extension's source (package data)."""
