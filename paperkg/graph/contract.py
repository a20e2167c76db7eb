"""The graph's contract: every label with its key and properties, every relationship type with
its ends and properties, each with its value type (as neo4j-admin import names them). The
transaction rows, the admin import's CSV headers, the empty lists restored after an import,
the dumps' and the injection tests' fixed lists and the tables of docs/model.md are made from, or
checked against, this one declaration.
"""

from __future__ import annotations

# The properties of each node label and relationship type, with the importer's value types.
# Integers are `long` (Cypher integers are 64-bit).
MENTION_PROPERTIES = {
    "title": "string",
    "title_norm": "string",
    "year": "long",
    "venue": "string",
    "authors": "string[]",
    "cited_by_count": "long",
    "reference_count": "long",
    "builds_on_in_map": "long",
    "first_posted": "date",
    "abstract": "string",
    "url": "string",
    "reference_text": "string",
}
NODES: dict[str, tuple[str, dict[str, str]]] = {  # label: (key, properties)
    "Paper": (
        "paper_id",
        {"arxiv_id": "string", "doi": "string", "dois": "string[]", "fallback": "string", **MENTION_PROPERTIES},
    ),
    "Evidence": (
        "key",
        {"arxiv_id": "string", "doi": "string", "title_norm": "string", "year": "long", "fallback": "string"},
    ),
    "Document": (
        "doc_id",
        {
            "path": "string",
            "sha256": "string",
            "kind": "string",
            "size_bytes": "long",
            "paper_key": "string",
            "warnings": "string[]",
            "run_id": "string",
            "ingested_at": "datetime",
        },
    ),
    "Claim": (
        "claim_id",
        {
            "text": "string",
            "quotes": "string[]",
            "kind": "string",
            "basis": "string",
            "section": "string",
            "substantial": "boolean",
            "sources_checked": "long",
            "sources_total": "long",
            "flags": "string[]",
            "flag_reasons": "string[]",
            "support_note": "string",
            "rests_on_assumption": "boolean",
            "also_stated_in": "string[]",
            "origin": "string",
        },
    ),
    "Source": (
        "source_id",
        {"key": "string", "first_author": "string", "year": "long", "year_suffix": "string", "matched": "boolean"},
    ),
}
DOCS = {"docs": "string[]"}
RELATIONSHIPS: dict[str, tuple[str, str, str, dict[str, str]]] = {  # file: (type, start, end, properties)
    "paper_cites": ("CITES", "Paper", "Paper", DOCS),
    "paper_mentions": (
        "MENTIONS",
        "Document",
        "Paper",
        {
            **MENTION_PROPERTIES,
            "precedence": "string",
            "key": "string",
            "lines": "long[]",
            "subject": "boolean",
            "cited": "boolean",
            "citing": "boolean",
            "sources": "string[]",
        },
    ),
    "evidence_of": ("OF", "Evidence", "Paper", {}),
    "claim_mentions": ("MENTIONS", "Document", "Claim", {}),
    "source_mentions": ("MENTIONS", "Document", "Source", {}),
    "makes": ("MAKES", "Paper", "Claim", DOCS),
    "claim_cites": ("CITES", "Claim", "Source", DOCS),
    "checked_against": (
        "CHECKED_AGAINST",
        "Claim",
        "Source",
        {"verdict": "string", "confidence": "double", "rationale": "string", "ambiguous": "boolean", **DOCS},
    ),
    "supports": ("SUPPORTS", "Source", "Claim", DOCS),
    "refers_to": ("REFERS_TO", "Source", "Paper", DOCS),
}


# Stored by the graph's own statements rather than by a document's rows: the lower-cased title
# find_papers searches (cypher/title_lower.cypher), a claim's support status
# (cypher/claim_status.cypher) and a paper's counts of its checked and unsupported claims
# (cypher/claim_counts.cypher).
DERIVED: dict[str, dict[str, str]] = {
    "Paper": {"title_lower": "string", "claims_checked": "long", "claims_unsupported": "long"},
    "Claim": {"status": "string"},
}
# Lists ingestion always sets, [] when empty (neo4j-admin import writes no empty list, so
# cypher/restore_empty_lists.cypher puts them back).
ALWAYS_LISTS: dict[str, tuple[str, ...]] = {
    "Claim": ("quotes", "flags", "flag_reasons", "also_stated_in"),
    "Document": ("warnings",),
}
# A paper's properties that say which work it is; the others are folded from its mentions.
IDENTITY_PROPERTIES = ("paper_id", "arxiv_id", "doi", "dois", "fallback", "title_lower")
# What a MENTIONS relationship says about the mention itself rather than about the work.
UNIT_PROPERTIES = ("precedence", "key", "lines", "subject", "cited", "citing", "sources")
# Bookkeeping of runs (their change sets too) and the graph's format stamp
# (paperkg/load/graph_format.py), outside the graph of documents (not in dumps).
RUN_LABELS = ("IngestRun", "IngestLock", "ChangeSet", "GraphFormat")
# `paperkg analyze` (paperkg/analysis.py): what it writes on papers, and its own nodes. A
# function of the graph, written only on analyze, so the dumps of documents leave it out.
ANALYSIS_PROPERTIES = (
    "pagerank",
    "citations",
    "references",
    "cocitation_cluster",
    "coupling_cluster",
    "main_path",
    "key_route",
    "key_route_next",
    "analysis_run",
)
ANALYSIS_LABELS = ("AnalysisRun", "Cluster")
# `paperkg precompute`'s stored answers (paperkg/run/answers.py): a function of the graph too,
# written only when asked for.
ANSWER_LABELS = ("Answer",)

LABELS = tuple(NODES) + RUN_LABELS + ANALYSIS_LABELS + ANSWER_LABELS
TYPES = tuple(sorted({kind for kind, *_ in RELATIONSHIPS.values()}))


def properties(label: str) -> dict[str, str]:
    """A label's properties as stored: written by rows, and derived."""
    return {**NODES[label][1], **DERIVED.get(label, {})}


# What each label is, for the tables of docs/model.md (docs/gen.py).
MEANINGS = {
    "Paper": "A work, one node however documents name it (see Identity).",
    "Evidence": "One distinct statement of which work a mention is, `OF` the paper it resolved to.",
    "Document": "A document: `doc_id` is the SHA-256 of its content, `path` where it was last read.",
    "Claim": "A claim from a claim-check page; `status` its support status (indexed).",
    "Source": "A source as a claim names it (`Marks et al., 2024`), one per page and normalised key.",
}


def graph_table() -> str:
    """A table of labels, keys and properties (`python -m paperkg.graph.contract`)."""
    lines = ["| Node | Key | What it is | Properties |", "|---|---|---|---|"]
    for label, (key, _) in NODES.items():
        names = ", ".join(f"`{name}`" for name in properties(label))
        lines.append(f"| `{label}` | `{key}` | {MEANINGS[label]} | {names} |")
    lines += ["", "| Relationship | Properties |", "|---|---|"]
    for kind, start, end, props in RELATIONSHIPS.values():
        names = ", ".join(f"`{name}`" for name in props) or "—"
        lines.append(f"| `(:{start})-[:{kind}]->(:{end})` | {names} |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(graph_table())
