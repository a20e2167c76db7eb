"""paperkg: a knowledge base of scholarly papers, their claims and their sources, in Neo4j."""

__version__ = "0.1.0"
