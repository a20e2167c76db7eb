"""The schema and write statements: package data, read by paperkg.statements."""
