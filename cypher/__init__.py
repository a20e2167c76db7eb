"""The schema and write statements: package data, read by paperkg.cypher_files."""
