"""The benchmark's goals (issues 20 and 48), each beside the figure a benchmark run measured for it: met, missed, or
not measured (the run did not cover that size or path).

`goals(results)` reads bench/results.json's shape: the full run's `sizes` and the rows of the
partial runs (`--offline-only`, `--ingest-only`) kept under `partial_runs`. A figure comes
from the full run when it has one at that size, else from a partial run.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from typing import Any

# The offline path end to end: papers, minutes at most, the peak RSS of each process at most (MB).
OFFLINE = ((500_000, 30, 1024), (1_000_000, 35, 1229))
# `paperkg ingest` of this many papers into an empty graph, its processes' peak RSS at most (MB).
INGEST_RSS = ((250_000, 300), (500_000, 300))
RATIO_PAPERS = (2_000, 10_000, 50_000)
# The default `ingest` against LOAD CSV: at least even at every size, well ahead at the largest.
INGEST_RATIO = {2_000: 1.0, 10_000: 1.0, 50_000: 1.3}
REINGEST_PAPERS = 50_000
SYNC_PAPERS = 50_000


@dataclass
class Goal:
    goal: str
    figure: str  # the measured figure, in words ("" when not measured)
    status: str  # met | missed | not measured
    load: float | None = None  # the load average when it was measured
    command: str | None = None  # the benchmark command that measured it

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def rows(results: dict[str, Any]) -> Iterator[tuple[dict[str, Any], str]]:
    """Every measured size: (row, the command that measured it), the full run's first."""
    for row in results.get("sizes", []):
        yield row, results.get("command", "")
    for run in results.get("partial_runs", {}).values():
        for row in run.get("sizes", []):
            yield row, run.get("command", "")


def _at(results: dict[str, Any], papers: int, has: Callable[[dict[str, Any]], bool]) -> tuple[dict, str] | None:
    return next(((row, command) for row, command in rows(results) if row["papers"] == papers and has(row)), None)


def _status(met: bool) -> str:
    return "met" if met else "missed"


def _judged(
    value: float, shown: str, met: Callable[[float], bool], part: dict[str, Any]
) -> tuple[str, bool, float | None]:
    """A figure as `_measured` takes it: `value` in words, whether it meets the goal, and the
    load average of the part of the run that measured it."""
    return shown.format(value), met(value), part["load"]


def _measured(
    results: dict[str, Any],
    papers: int,
    text: str,
    part: str,
    judge: Callable[[dict[str, Any]], tuple[str, bool, float | None]],
) -> Goal:
    """The goal `text`, judged on the row measured at `papers` that has `part` (not measured
    when no row has it)."""
    found = _at(results, papers, lambda row: part in row)
    if found is None:
        return Goal(text, "", "not measured")
    row, command = found
    figure, met, load = judge(row)
    return Goal(text, figure, _status(met), load, command)


def goals(results: dict[str, Any]) -> list[Goal]:
    out: list[Goal] = []
    for papers in RATIO_PAPERS:
        out.append(
            _measured(
                results,
                papers,
                f"first ingest (`ingest --bulk`, an empty graph) >= 1.0x LOAD CSV at {papers:,} papers",
                "bulk",
                lambda row: _judged(row["ratios"]["bulk_vs_load_csv"], "{}x", lambda ratio: ratio >= 1.0, row["bulk"]),
            )
        )
        goal = INGEST_RATIO[papers]
        out.append(
            _measured(
                results,
                papers,
                f"first `ingest` (the path it takes on its own) >= {goal}x LOAD CSV at {papers:,} papers",
                "ratios",
                lambda row, goal=goal: _judged(
                    row["ratios"]["ingest_vs_load_csv"], "{}x", lambda ratio: ratio >= goal, row["ingest"]
                ),
            )
        )
    for papers, minutes, rss_mb in OFFLINE:
        out += _offline_goals(results, papers, minutes, rss_mb)
    for papers, rss_mb in INGEST_RSS:
        out.append(
            _measured(
                results,
                papers,
                f"{papers:,} papers through `paperkg ingest` with peak RSS <= {rss_mb} MB",
                "ingest",
                lambda row, rss_mb=rss_mb: _judged(
                    row["ingest"]["peak_rss_mb"], "{:,.0f} MB", lambda mb: mb <= rss_mb, row["ingest"]
                ),
            )
        )
    for papers, *_ in OFFLINE:
        out += _query_goals(results, papers)
    out.append(
        _measured(
            results,
            REINGEST_PAPERS,
            f"unchanged re-ingest <= 0.5 % of the first ingest at {REINGEST_PAPERS:,} papers",
            "reingest",
            lambda row: _judged(
                100 * row["reingest"]["fraction"], "{:.2f} %", lambda percent: percent <= 0.5, row["reingest"]
            ),
        )
    )
    # The slowest size, each size's figure taken as the other goals take theirs (the full run's,
    # else the first partial run's): an older run's figure at a size does not count.
    latest: dict[int, tuple[dict[str, Any], str]] = {}
    for row, command in rows(results):
        if "parse" in row:
            latest.setdefault(row["papers"], (row, command))
    parses = list(latest.values())
    text = "parse >= 20 MB/s on one core"
    if parses:
        row, command = min(parses, key=lambda found: found[0]["parse"]["mb_per_s"])
        speed = row["parse"]["mb_per_s"]
        out.append(
            Goal(
                text,
                f"{speed} MB/s (slowest size, {row['papers']:,})",
                _status(speed >= 20),
                row["parse"]["load"],
                command,
            )
        )
    else:
        out.append(Goal(text, "", "not measured"))
    out.append(
        _measured(
            results,
            SYNC_PAPERS,
            f"a sync where 1 % of the documents changed <= 2 % of the first ingest at {SYNC_PAPERS:,} papers",
            "sync",
            lambda row: _judged(100 * row["sync"]["fraction"], "{:.2f} %", lambda percent: percent <= 2.0, row["sync"]),
        )
    )
    return out


def _offline_goals(results: dict[str, Any], papers: int, minutes: int, rss_mb: int) -> list[Goal]:
    text = f"{papers:,} papers through the offline path in <= {minutes} min end to end"
    rss_text = f"the offline path at {papers:,} papers with peak RSS <= {rss_mb / 1024:.3g} GB"
    found = _at(results, papers, lambda row: "admin_import" in row)
    if not found:
        return [Goal(text, "", "not measured"), Goal(rss_text, "", "not measured")]
    row, command = found
    total = row["admin_import"]["total_seconds"]
    peaks = offline_peaks(row)
    described = {name: f"{mb:,.0f} MB" for name, mb in peaks.items()}
    if "peak_pss_mb" in row["export"]:  # shown, not judged: the summed RSS is the stricter figure
        described["export"] += f" (PSS {row['export']['peak_pss_mb']:,.0f} MB)"
    words = ", ".join(f"{name} {text}" for name, text in described.items())
    return [
        Goal(text, f"{total / 60:.1f} min", _status(total <= minutes * 60), row["admin_import"]["load"], command),
        Goal(rss_text, words, _status(max(peaks.values()) <= rss_mb), row["export"]["load"], command),
    ]


def _query_goals(results: dict[str, Any], papers: int) -> list[Goal]:
    found = _at(results, papers, lambda row: "queries" in row)
    out = []
    for mode, limit_ms, words in (
        ("per_paper", 100, "per-paper library queries p95 <= 100 ms"),
        ("corpus_wide", 3000, "corpus-wide library queries <= 3 s (p95)"),
    ):
        text = f"at {papers:,} papers, {words}"
        if not found:
            out.append(Goal(text, "", "not measured"))
            continue
        row, command = found
        timings = row["queries"][mode]
        over = {name: t["p95_ms"] for name, t in timings.items() if t["p95_ms"] > limit_ms}
        slowest = max(timings, key=lambda name: timings[name]["p95_ms"])
        figure = f"slowest {slowest} {timings[slowest]['p95_ms']:,} ms"
        if over:
            figure += f"; over: {', '.join(f'{name} {ms:,} ms' for name, ms in over.items())}"
        if mode == "per_paper" and "warm" in row["queries"]:
            figure += f"; page cache warmed in {row['queries']['warm']['seconds']:,} s"
        if mode == "corpus_wide" and "precompute" in row["queries"]:
            figure += f"; answers precomputed in {row['queries']['precompute']['seconds']:,} s"
        out.append(Goal(text, figure, _status(not over), row["queries"]["load"], command))
    return out


def offline_peaks(row: dict[str, Any]) -> dict[str, float]:
    """The peak RSS of each process of the offline path that paperkg runs (MB)."""
    peaks = {"export": row["export"]["peak_rss_mb"]}
    if "import_peak_rss_mb" in row["admin_import"]:
        peaks["neo4j-admin import"] = row["admin_import"]["import_peak_rss_mb"]
    return peaks


def goal_lines(results: dict[str, Any], columns: Callable[[list[tuple[str, ...]]], list[str]]) -> list[str]:
    table = [("goal", "figure", "status", "load")]
    for goal in goals(results):
        table.append((goal.goal, goal.figure or "-", goal.status, "" if goal.load is None else str(goal.load)))
    return ["goals:", *columns(table)]
