"""The refactoring reference (issue 17): a graph and every library answer, as section digests.

`reference(kb, corpus)` ingests a corpus into an emptied knowledge base and returns one SHA-256
per section: each label's nodes and each relationship type of the canonical dump
(tests/graph_dump.py), and each library query's answers for a fixed choice of papers. A change
that keeps the graph and the answers gives the same digests; one that does not names the
sections it changed. Digests, not the data, are kept: the seeds' text may not be copied into
the repository, and the 2k-paper answers would be megabytes.

Recorded from the code before the restructuring with

    python tests/golden.py SEEDS_DIR tests/fixtures/golden/seeds.json
    python tests/golden.py --synthetic tests/fixtures/golden/synthetic.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

from paperkg.graph.identity import RANK_SUBJECT

from graph_dump import named

PAPERS_PER_QUERY = 12  # per-paper queries run for this many papers, chosen by paper_id
SYNTHETIC = {"papers": 2000, "pages": 20, "seed": 17}
# Stored by the restructuring and not part of the graph it was recorded from; pinned by its own test.
ADDED_PROPERTIES = {"Claim": {"status"}, "Paper": {"claims_checked", "claims_unsupported"}}


def _digest(items: list[Any], corpus: str = "") -> str:
    """Order-free over items; within an item (a query's rows) order counts. Where the corpus lies
    is left out (a document's path is shown as its place in the corpus)."""
    texts = (repr(item).replace(corpus, "CORPUS") if corpus else repr(item) for item in items)
    text = json.dumps(sorted(texts), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def _without_added(name: tuple, props: tuple) -> tuple:
    added = ADDED_PROPERTIES.get(name[0], set())
    return tuple((key, value) for key, value in props if key not in added)


def _as_recorded(kind: str, props: tuple) -> tuple:
    """A mention's precedence as the rank it was recorded as: the restructuring made the fold's
    order one text (rank, document, evidence key), whose other parts the mention's document and
    key already are."""
    if kind != "MENTIONS":
        return props
    ranked = [
        ("rank", repr(RANK_SUBJECT - int(value[1]))) if key == "precedence" else (key, value) for key, value in props
    ]
    return tuple(sorted(ranked))


def dump_sections(kb) -> dict[str, str]:
    nodes, relationships = named(kb)
    sections: dict[str, list] = defaultdict(list)
    for name, props in nodes:
        sections[f"node {name[0]}"].append((name, _without_added(name, props)))
    for start, kind, end, props in relationships:
        sections[f"relationship {kind}"].append((start, end, _as_recorded(kind, props)))
    return {section: f"{len(items)} {_digest(items)}" for section, items in sorted(sections.items())}


def _papers(kb) -> list[tuple[str, str]]:
    """Every n-th paper by paper_id, the papers that make claims and the most cited ones, each
    with the longest word of its title (for the text searches)."""
    spread = kb.cypher("MATCH (p:Paper) RETURN p.paper_id AS id ORDER BY id")
    step = max(1, len(spread) // PAPERS_PER_QUERY)
    claiming = kb.cypher(
        "MATCH (p:Paper)-[:MAKES]->() RETURN DISTINCT p.paper_id AS id ORDER BY id LIMIT $n", n=PAPERS_PER_QUERY
    )
    cited = kb.cypher(
        "MATCH (p:Paper)<-[c:CITES]-() WITH p, count(c) AS n RETURN p.paper_id AS id ORDER BY n DESC, id LIMIT 4"
    )
    chosen = sorted({row["id"] for row in spread[::step] + claiming + cited})
    titles = {
        row["id"]: row["title"]
        for row in kb.cypher(
            "MATCH (p:Paper) WHERE p.paper_id IN $ids RETURN p.paper_id AS id, coalesce(p.title, '') AS title",
            ids=chosen,
        )
    }
    return [(paper, max(titles[paper].split() or [paper], key=len)) for paper in chosen]


def _arguments(query, papers: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """Each call of a query: the defaults alone where nothing is required, and one call per chosen
    paper naming it in the first `paper` parameter (a second required one names the last chosen
    paper) and its title's longest word in a required text."""
    if any(param.type == "search" for param in query.params):
        return []  # the search queries came after the reference was recorded: there is none to hold them to
    calls: list[dict[str, Any]] = [] if any(param.required for param in query.params) else [{}]
    if not any(param.type == "paper" or param.required for param in query.params):
        return calls
    for paper, word in papers:
        call: dict[str, Any] = {}
        for param in query.params:
            if param.type == "paper" and (param.required or not call):
                call[param.name] = paper if not call else papers[-1][0]
            elif param.required and param.type == "string":
                call[param.name] = word
            elif param.required:
                raise ValueError(f"{query.name}: no reference value for required {param.name}")
        calls.append(call)
    return calls


def answer_sections(kb, corpus: Path) -> dict[str, str]:
    from paperkg.library import UnknownPaper, load_library

    papers = _papers(kb)
    sections = {}
    for query in load_library():
        answers = []
        for call in _arguments(query, papers):
            try:
                rows = kb.query(query.name, **call)
            except UnknownPaper as error:
                rows = [{"unknown": str(error)}]
            answers.append((sorted(call.items()), [sorted(row.items()) for row in rows]))
        rows_total = sum(len(rows) for _, rows in answers)
        sections[f"query {query.name}"] = (
            f"{rows_total} rows in {len(answers)} calls {_digest(answers, str(corpus.resolve()))}"
        )
    return sections


def reference(kb, corpus: Path) -> dict[str, str]:
    from paperkg.run.ingest import ingest_paths

    kb.reset()
    ingest_paths(kb, [corpus])
    return {**dump_sections(kb), **answer_sections(kb, corpus)}


def synthetic_corpus(directory: Path) -> Path:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    from synth import generate  # bench/synth.py

    generate(directory, **SYNTHETIC)
    return directory


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--synthetic", action="store_true")
    args = parser.parse_args()
    from paperkg.db import connect
    from paperkg.load.schema import apply_schema
    from paperkg.server import Instance

    with tempfile.TemporaryDirectory() as home:
        instance = Instance(Path(home))
        instance.start(bolt_port=17697, http_port=17484)
        try:
            kb = connect(home=home)
            apply_schema(kb)
            corpus = synthetic_corpus(Path(home) / "corpus") if args.synthetic else args.corpus
            sections = reference(kb, corpus)
            kb.close()
        finally:
            instance.stop()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(sections, indent=1, sort_keys=True) + "\n")
    print(f"{len(sections)} sections written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
