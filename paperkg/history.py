"""The run history and what it changed: `paperkg runs`, `paperkg changes` and `paperkg digest`.

Every transaction of a run stores its change set (paperkg/graph/changes.py); the library query
`changes_since` nets them over a window. This module turns a user's `--since` (a run, a date
or `7d`) into that query's parameters, lists the runs, and writes the digest a researcher
reads on Monday, as Markdown or a self-contained HTML page.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Any

from paperkg.errors import EXIT_FAILED, PaperkgError

from .db import KnowledgeBase
from .library import UnknownPaper, library

RELATIVE = re.compile(r"(?P<count>\d+)(?P<unit>[hdw])")
UNITS = {"h": "hours", "d": "days", "w": "weeks"}
EVERY_CHANGE = 2**62  # changes_since's limit when all rows are wanted
RUN_ID_PREFIX = 4  # a run may be named by a unique prefix of at least this many characters
ATTENTION = ("unsupported", "unverifiable")  # claim statuses a digest reports as new
# The exit code `paperkg sync` gave for a run of each status (cli: 1 a document rejected, 2 an
# error such as a lost connection); a run that did not finish gave none it could record.
EXIT_CODES = {"ok": 0, "rejected": 1, "failed": 2}


class HistoryError(PaperkgError, ValueError):
    """A `--since`, `--run` or `--watch` that names nothing: one line for the user."""

    exit_code = EXIT_FAILED


def runs(kb: KnowledgeBase, limit: int = 1000) -> list[dict[str, Any]]:
    """The run history, newest first: when, how long, totals, status, change sets."""
    found = []
    for row in kb.read("runs", limit=limit):
        run = row["run"] or {}
        started, ended = run.get("started_at") or row["started"], run.get("ended_at")
        status = run.get("status") or ("ok" if run and not run.get("rejected") else "rejected" if run else None)
        found.append(
            {
                "run_id": row["run_id"],
                "started_at": started,
                "ended_at": ended,
                "seconds": _seconds(started, ended),
                "status": status or "did not finish",
                "exit_code": None if status is None else EXIT_CODES.get(status),
                "totals": {
                    key: run.get(key, 0) for key in ("seen", "new", "changed", "unchanged", "rejected", "retracted")
                }
                if run
                else None,
                "error": run.get("error"),
                "loader": run.get("loader"),  # the way it wrote (paperkg.load); None: no record, or an older one
                "change_sets": row["change_sets"],
                "changes": row["changes"],
                "last_commit": row["last_commit"],
            }
        )
    return found


def _seconds(started: str | None, ended: str | None) -> float | None:
    if not started or not ended:
        return None
    return (datetime.fromisoformat(ended) - datetime.fromisoformat(started)).total_seconds()


def find_run(kb: KnowledgeBase, text: str) -> dict[str, Any]:
    """The run `text` names: its id, or a unique prefix of it."""
    history = runs(kb, limit=EVERY_CHANGE)
    exact = [run for run in history if run["run_id"] == text]
    found = exact or ([run for run in history if run["run_id"].startswith(text)] if len(text) >= RUN_ID_PREFIX else [])
    if len(found) == 1:
        return found[0]
    if found:
        raise HistoryError(f"{text!r} names {len(found)} runs: give more of the run id (`paperkg runs` lists them)")
    raise HistoryError(f"no run {text!r}: `paperkg runs` lists the runs")


def window(kb: KnowledgeBase, since: str | None, now: datetime | None = None) -> dict[str, Any]:
    """changes_since's parameters for `--since`: `7d`/`12h`/`2w` before now, an ISO date or
    date-time (UTC when it names no zone), or a run (the changes of the runs after it)."""
    if since is None:
        return {"since": None, "after_run": None}
    text = since.strip()
    relative = RELATIVE.fullmatch(text)
    if relative:
        moment = (now or datetime.now(UTC)) - timedelta(**{UNITS[relative["unit"]]: int(relative["count"])})
        return {"since": moment.isoformat(timespec="seconds"), "after_run": None}
    stated = _moment(text)
    if stated is not None:
        return {"since": stated.isoformat(timespec="seconds"), "after_run": None}
    return {"since": None, "after_run": find_run(kb, text)["run_id"]}


def _moment(text: str) -> datetime | None:
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        try:
            day = date.fromisoformat(text)
        except ValueError:
            return None
        moment = datetime(day.year, day.month, day.day)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def changes(
    kb: KnowledgeBase,
    *,
    since: str | None = None,
    run: str | None = None,
    paper: str | None = None,
    now: datetime | None = None,
) -> list[dict[str, Any]]:
    """The net changes since a point (or of one run), per paper when asked."""
    params = window(kb, since, now)
    if run is not None:
        params["run"] = find_run(kb, run)["run_id"]
    if paper is not None:
        params["paper"] = _paper_id(kb, paper)
    return list(library().run(kb, "changes_since", limit=EVERY_CHANGE, **params))


def _paper_id(kb: KnowledgeBase, text: str) -> str:
    """A paper as the graph keys it; a work that has left the graph is named by its paper_id."""
    try:
        return library().resolve_paper(kb, text)
    except UnknownPaper:
        return text.strip()


def describe(row: dict[str, Any]) -> str:
    """One change in words."""
    entity, what, key = row["entity"], row["what"], row["key"]
    detail = f" — {row['detail']}" if row["detail"] else ""
    if entity == "claim":
        states = {
            "added": f"added ({row['after']})",
            "removed": f"removed (was {row['before']})",
            "changed": f"{row['before']} → {row['after']}",
        }
        return f"claim {states[what]}: {row['detail'] or key} [{row['paper'] or '-'}]"
    if entity == "check":
        states = {
            "added": f"added ({row['after']})",
            "removed": f"removed (was {row['before']})",
            "flipped": f"flipped {row['before']} → {row['after']}",
        }
        claim_id, _, _ = key.partition(" | ")
        return f"check {states[what]}: {row['detail'] or key} for claim {claim_id} [{row['paper'] or '-'}]"
    if entity == "merge":
        if what == "merged":
            return f"merged: {key} into {row['after']}{detail}"
        return f"split: {key} from {row['before']}{detail}"
    if entity == "source":
        moved = {
            "matched": f"matched to {row['after']}",
            "unmatched": f"no longer matched to {row['before']}",
            "rematched": f"{row['before']} → {row['after']}",
        }
        return f"source {row['detail'] or key} {moved[what]}"
    if entity == "cites":
        return f"citation {what}: {key}"
    return f"work {what}: {key}{detail}"


# -- the digest --------------------------------------------------------------------------------


@dataclass
class Section:
    title: str
    empty: str  # what the section says when it has nothing
    items: list[str] = field(default_factory=list)


@dataclass
class Digest:
    heading: str
    scope: str
    sections: list[Section]

    def markdown(self) -> str:
        lines = [f"# {self.heading}", "", self.scope, ""]
        for section in self.sections:
            lines += [f"## {section.title}", ""]
            lines += [f"- {item}" for item in section.items] or [section.empty]
            lines.append("")
        return "\n".join(lines)

    def html(self) -> str:
        parts = [
            "<!DOCTYPE html>",
            '<html lang="en"><head><meta charset="utf-8">',
            f"<title>{html.escape(self.heading)}</title>",
            "<style>body{font:16px/1.5 system-ui,sans-serif;max-width:48em;margin:2em auto;padding:0 1em;"
            "color:#222}h1{font-size:1.5em}h2{font-size:1.15em;margin-top:1.6em;border-bottom:1px solid #ddd}"
            "p.empty{color:#777;font-style:italic}</style></head><body>",
            f"<h1>{html.escape(self.heading)}</h1>",
            f"<p>{html.escape(self.scope)}</p>",
        ]
        for section in self.sections:
            parts.append(f"<h2>{html.escape(section.title)}</h2>")
            if section.items:
                parts.append("<ul>" + "".join(f"<li>{html.escape(item)}</li>" for item in section.items) + "</ul>")
            else:
                parts.append(f'<p class="empty">{html.escape(section.empty)}</p>')
        parts.append("</body></html>")
        return "\n".join(parts) + "\n"


def work_label(paper_id: str, title: str | None, year: int | None) -> str:
    """How the digest names a work: its title and year, then its identifier in brackets; an
    untitled work by its identifier (and year) alone."""
    if not title:
        return f"{paper_id} ({year})" if year else paper_id
    return f"{title} ({year}) [{paper_id}]" if year else f"{title} [{paper_id}]"


def digest(kb: KnowledgeBase, *, since: str, watch: Sequence[str] = (), now: datetime | None = None) -> Digest:
    """What changed since `since` that a researcher following `watch` (or the whole corpus)
    would read: new works citing the watched papers or the works they build on, new
    unsupported and unverifiable claims citing them, flipped verdicts, merges and splits."""
    rows = changes(kb, since=since, now=now)
    watched = []
    for text in watch:
        try:
            watched.append(library().resolve_paper(kb, text))
        except UnknownPaper as exc:
            raise HistoryError(str(exc)) from None
    claims = [row for row in rows if row["entity"] == "claim" and row["after"] in ATTENTION]
    named = {row[name] for row in rows for name in ("paper", "other") if row[name]} | set(watched)
    (context,) = kb.read(
        "digest_context",
        watched=sorted(watched),
        claim_ids=[r["key"] for r in claims],
        paper_ids=sorted(named),
    )
    titles = {paper_id: (title, year) for paper_id, title, year in context["titles"]}
    followed = set(watched) | set(context["lineage"])
    claim_works = {claim_id: set(works) for claim_id, works in context["claim_works"]}

    def work(paper_id: str | None) -> str:
        return "-" if paper_id is None else work_label(paper_id, *titles.get(paper_id, (None, None)))

    added = {row["key"] for row in rows if row["entity"] == "work" and row["what"] == "added"}
    if watched:
        citing = Section(
            "New works citing the watched papers or the works they build on", "No new work cites them in this period."
        )
        by_citing: dict[str, list[str]] = {}
        for row in rows:
            if row["entity"] == "cites" and row["what"] == "added" and row["other"] in followed:
                by_citing.setdefault(row["paper"], []).append(row["other"])
        for paper_id, cited in sorted(by_citing.items()):
            new = " (new work)" if paper_id in added else ""
            citing.items.append(f"{work(paper_id)}{new} cites {', '.join(work(p) for p in sorted(cited))}")
    else:
        citing = Section("New works", "No new work in this period.")
        citing.items = [work(row["key"]) for row in rows if row["entity"] == "work" and row["what"] == "added"]
    attention = Section(
        "New unsupported and unverifiable claims" + (" citing them" if watched else ""),
        "No claim became unsupported or unverifiable in this period.",
    )
    for row in claims:
        if watched and not claim_works.get(row["key"], set()) & followed:
            continue
        was = "new claim" if row["before"] is None else f"was {row['before']}"
        attention.items.append(f'{row["after"]} ({was}): "{row["detail"]}" — made by {work(row["paper"])}')
    flipped = Section("Flipped verdicts", "No verdict flipped in this period.")
    for row in rows:
        if row["entity"] == "check" and row["what"] == "flipped":
            if watched and not {row["paper"], row["other"]} & followed:
                continue
            claim_id, _, _ = row["key"].partition(" | ")
            flipped.items.append(
                f"{row['before']} → {row['after']}: source {row['detail']} on claim {claim_id} of "
                f"{work(row['paper'])}" + (f", which refers to {work(row['other'])}" if row["other"] else "")
            )
    merges = Section("Merges and splits", "No work was merged or split in this period.")
    for row in rows:
        if row["entity"] == "merge":
            into = (
                f"merged into {work(row['after'])}" if row["what"] == "merged" else f"split from {work(row['before'])}"
            )
            merges.items.append(f"{row['key']} {into}" + (f" — {row['detail']}" if row["detail"] else ""))
    params = window(kb, since, now)
    point = f"since {params['since']}" if params["since"] else f"since run {params['after_run']}"
    scope = f"Watching {', '.join(work(p) for p in watched)}." if watched else "The whole corpus."
    return Digest(
        f"paperkg digest: what changed {point}",
        f"{scope} {len(rows)} net changes in this period.",
        [citing, attention, flipped, merges],
    )
