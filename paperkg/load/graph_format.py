"""The graph's format stamp: which paperkg wrote the graph, and whether this one can add to it.

Every paperkg graph carries one GraphFormat node, written before its first documents (under the
ingestion lock, by the run that finds the graph without one), or imported with them by an
offline import. Its `version` changes only when a release writes a graph that an earlier one cannot
extend (identity, keys, relationships); this release writes GRAPH_FORMAT.

What a command does with another version is decided from the stamp alone: an older one must be
deleted and ingested again (the message says what goes), a newer one needs a newer paperkg. A
graph without a stamp was written before stamps existed: the release before them kept the same
identity Evidence, and its graph is stamped and used; one that holds papers and no Evidence is
not a graph this paperkg can add to, and is refused without advice to delete it.
"""

from __future__ import annotations

from importlib.metadata import version as installed_version

from paperkg.cypher_files import statement
from paperkg.db import KnowledgeBase
from paperkg.errors import PaperkgError
from paperkg.write_steps import write_step

GRAPH_FORMAT = 2  # format 1: before paper identity kept its Evidence
RELEASE = installed_version("paperkg")
STAMP_NAME = "paperkg"  # the one GraphFormat node's name


def stamp_properties() -> dict[str, int | str]:
    """The stamp this release writes (an offline import writes it into the store)."""
    return {"version": GRAPH_FORMAT, "written_by": RELEASE}


class GraphFormatError(PaperkgError):
    """The graph is of a format this paperkg cannot add to; the message says why and what to do."""


def check_graph_format(kb: KnowledgeBase) -> None:
    """Stamp a graph that carries no stamp and can be added to; refuse one of another format.
    Called holding the ingestion lock, before a run writes."""
    (graph,) = kb.read("graph_format")
    version = graph["version"]
    if version == GRAPH_FORMAT:
        return
    if version is None:
        if graph["holds_data"] and not graph["keeps_evidence"]:
            raise GraphFormatError(
                f"the graph holds {graph['papers']:,} papers but no paperkg format stamp and no Evidence of paper "
                "identity: paperkg cannot add to it; ingest into an empty database (NEO4J_DATABASE, or another "
                "PAPERKG_HOME)"
            )
        write_step()
        kb.execute(statement("stamp_graph_format"), name=STAMP_NAME, **stamp_properties())
        return
    if version > GRAPH_FORMAT:
        raise GraphFormatError(
            f"the graph was written by paperkg {graph['written_by']} (graph format {version}), newer than this "
            f"paperkg {RELEASE} (format {GRAPH_FORMAT}): upgrade paperkg to use it"
        )
    raise GraphFormatError(
        f"the graph was written by paperkg {graph['written_by']} (graph format {version}), whose paper identity "
        f"this paperkg {RELEASE} (format {GRAPH_FORMAT}) cannot extend. `paperkg reset --yes` deletes all of "
        f"it (papers {graph['papers']:,}, claims {graph['claims']:,}, documents {graph['documents']:,}, runs "
        f"{graph['runs']:,} with their change sets); then ingest the documents again"
    )
