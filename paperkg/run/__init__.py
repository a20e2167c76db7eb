"""A run: the lock, the documents read in batches and loaded, the report and its record."""
