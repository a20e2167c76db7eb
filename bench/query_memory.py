"""A library query's time and the memory it holds at once, as Neo4j's PROFILE reports it.

    .venv/bin/python bench/query_memory.py QUERY [name=value ...] [--file OLD.cypher] [--runs N]

Runs on the knowledge base paperkg connects to (NEO4J_URI, or the managed server of
$PAPERKG_HOME). Parameters are written as for `paperkg query` (a paper as an arXiv id, DOI or
paper_id). With --file it also runs that file's Cypher with the same parameters, to compare
another version of the query (`git show REV:queries/QUERY.cypher > OLD.cypher`). Prints the
rows, the fastest of N timed runs after one untimed run, and GlobalMemory: the most memory the
query's operators held at once, which Neo4j counts against dbms.memory.transaction.total.max.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from paperkg.cypher_files import read_cypher_file
from paperkg.db import KnowledgeBase, connect
from paperkg.library import library


def measure(kb: KnowledgeBase, text: str, params: dict[str, Any], runs: int) -> dict[str, Any]:
    kb.driver.execute_query(text, params, database_=kb.database)
    seconds = []
    for _ in range(runs):
        started = time.perf_counter()
        records, _, _ = kb.driver.execute_query(text, params, database_=kb.database)
        seconds.append(time.perf_counter() - started)
    with kb.session() as session:
        result = session.run("PROFILE " + text, params)
        for _ in result:  # the profile is complete once every row has been read
            pass
        profile = result.consume().profile or {}
    return {
        "rows": len(records),
        "fastest_s": round(min(seconds), 3),
        "global_memory_mb": round(profile.get("args", {}).get("GlobalMemory", 0) / 1e6, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("query")
    parser.add_argument("params", nargs="*", metavar="name=value")
    parser.add_argument("--file", type=Path, help="another version of the query's Cypher, run with the same parameters")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    queries = library()
    query = queries.get(args.query)
    by_name = {param.name: param for param in query.params}
    given = {}
    for item in args.params:
        name, _, text = item.partition("=")
        if name not in by_name:
            parser.error(f"{args.query} takes no parameter {name!r} (it takes {', '.join(by_name) or 'none'})")
        given[name] = by_name[name].parse(text, args.query)
    with connect() as kb:
        values = dict(query.bind(given))
        for param in query.params:
            if param.type == "paper" and values[param.name] is not None:
                values[param.name] = queries.resolve_paper(kb, values[param.name])
        versions = {f"queries/{args.query}.cypher": query.text}
        if args.file:
            versions[str(args.file)] = read_cypher_file(args.file).text
        for name, text in versions.items():
            print(f"{name}: {measure(kb, text, values, args.runs)}")


if __name__ == "__main__":
    main()
