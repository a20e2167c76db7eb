"""Writing the graph: the schema, and the loaders that write documents' assertions into it."""
