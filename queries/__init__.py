"""The query library's Cypher files: package data, read by paperkg.library."""
