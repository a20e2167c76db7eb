"""The change set a run should have recorded, found the slow way: the whole graph's states
read before and after the run, and every difference listed (the test's oracle for
paperkg/graph/changes.py, which reads only what each transaction touches)."""

from __future__ import annotations

from paperkg.cypher_files import statement

EVERYTHING = """
CALL () { MATCH (p:Paper) RETURN collect([p.paper_id, coalesce(p.title, '')]) AS papers }
CALL () { MATCH (a:Paper)-[:CITES]->(b:Paper) RETURN collect([a.paper_id, b.paper_id]) AS cites }
CALL () { MATCH (c:Claim) RETURN collect(c.claim_id) AS claims }
CALL () { MATCH (c:Claim)-[r:CHECKED_AGAINST]->(s:Source)
          RETURN collect([c.claim_id, s.source_id, coalesce(r.verdict, '')]) AS checks }
CALL () { MATCH (s:Source) OPTIONAL MATCH (s)-[:REFERS_TO]->(w:Paper)
          WITH s, min(w.paper_id) AS paper_id WHERE paper_id IS NOT NULL
          RETURN collect([s.source_id, paper_id]) AS sources }
RETURN papers, cites, claims, checks, sources
"""


def graph_state(kb) -> dict[str, dict]:
    (row,) = kb.cypher(EVERYTHING)
    statuses = kb.cypher(
        statement("change_state"),
        scope={
            "paper_ids": [],
            "cites": [],
            "claim_ids": row["claims"],
            "checks": [],
            "source_ids": [],
            "around": [],
            "doc_ids": [],
        },
    )[0]["claims"]
    return {
        "work": {paper_id: "present" for paper_id, _ in row["papers"]},
        "cites": {f"{a} -> {b}": "present" for a, b in row["cites"]},
        "claim": {claim_id: status for claim_id, status, _, _ in statuses},
        "check": {f"{claim} | {source}": verdict for claim, source, verdict in row["checks"]},
        "source": dict(row["sources"]),
    }


def differences(before: dict[str, dict], after: dict[str, dict]) -> set[tuple]:
    """(entity, key, before, after) for every state that differs."""
    found = set()
    for entity in before:
        for key in before[entity].keys() | after[entity].keys():
            was, now = before[entity].get(key), after[entity].get(key)
            if was != now:
                found.add((entity, key, was, now))
    return found
