"""The graph: its contract (labels, keys, properties), identity, rows, and the two loaders."""
