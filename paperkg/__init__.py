"""paperkg: a knowledge base of scholarly papers, their claims and their sources, in Neo4j."""

__version__ = "0.1.0"
__all__ = ["__version__", "connect"]


def __getattr__(name: str):
    # `from paperkg import connect` for notebooks and scripts, without importing the driver
    # for every `import paperkg` (the parser and the CLI's --help need none of it).
    if name == "connect":
        from paperkg.run.connection import connect

        return connect
    raise AttributeError(f"module 'paperkg' has no attribute {name!r}")
