"""The `paperkg` command: a thin layer that wires arguments to the Python API."""

from __future__ import annotations

import argparse
import json
import os
import sys
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from paperkg.errors import EXIT_FAILED, EXIT_OK, EXIT_STOPPED, EXIT_USAGE, PaperkgError
from paperkg.limits import BULK_MIN_DOCUMENTS, DOCS_PER_TRANSACTION, MAX_DOCUMENT_BYTES, OFFLINE_MIN_DOCUMENTS

from . import __version__

if TYPE_CHECKING:
    from paperkg.load.admin_import import ExportSummary

# The driver, the parser and the library are imported by the commands that use them, so that
# `paperkg --help` and usage errors answer at once.

EXAMPLE_PAPER = "2402.06618"  # of examples/corpus, which `make run` ingests

EXIT_PIPE_CLOSED = 141  # the reader of stdout went away: 128 + SIGPIPE, as a shell reports it


class CommandError(PaperkgError):
    """A command given what it cannot do (its options, its paths), or a file it cannot write."""

    def __init__(self, message: str, exit_code: int = EXIT_USAGE):
        super().__init__(message)
        self.exit_code = exit_code


# -- db ------------------------------------------------------------------------------------


def cmd_db(args: argparse.Namespace) -> int:
    from paperkg.server import Instance

    instance = Instance(args.home)
    if args.action == "start":
        started = instance.start(
            bolt_port=args.bolt_port, http_port=args.http_port, heap=args.heap, pagecache=args.pagecache
        )
        state = "started" if started else "already running"
        print(
            f"Neo4j {state}: Bolt {instance.bolt_uri}, Neo4j Browser {instance.browser_url} "
            f"(user neo4j, password in {instance.password_file})"
        )
        return EXIT_OK
    if args.action == "stop":
        print("Neo4j stopped" if instance.stop() else "Neo4j was not running")
        return EXIT_OK
    if instance.is_running():
        memory = instance.memory()
        print(
            f"running: Bolt {instance.bolt_uri}, Neo4j Browser {instance.browser_url}, "
            f"heap {memory.heap}, page cache {memory.pagecache}, home {instance.home}"
        )
        return EXIT_OK
    print(f"stopped (home {instance.home})")
    return EXIT_STOPPED


# -- documents -----------------------------------------------------------------------------


def cmd_parse(args: argparse.Namespace) -> int:
    from pydantic import TypeAdapter

    from paperkg.parse import Document, ParseError, parse_file

    if args.schema:
        print(json.dumps(TypeAdapter(Document).json_schema(), indent=2))
        return EXIT_OK
    if not args.files:
        raise CommandError("parse needs FILE arguments (or --schema)")
    parsed, failed = [], 0
    for path in args.files:
        try:
            document = parse_file(path)
        except ParseError as exc:
            failed += 1
            print(f"paperkg: error: {exc}", file=sys.stderr)
            parsed.append({"path": str(path), "error": exc.reason, "line": exc.line})
            continue
        parsed.append(document.model_dump(mode="json"))
        if not args.json:
            print(_describe(document))
    if args.json:
        print(json.dumps(parsed, indent=2, ensure_ascii=False))
    return EXIT_FAILED if failed else EXIT_OK


def _describe(document) -> str:
    """The document and its reconciliation in words: each total it states beside what its own
    lists hold, and what a disagreement means."""
    lines = [f'{document.path}: {document.kind} "{document.title}" (arXiv {document.arxiv_id or "-"})']
    for item in document.reconciliation:
        note = f" ({item.note})" if item.note else ""
        if item.ok:
            lines.append(f"  agrees    {item.what}: states {item.stated}, its lists hold {item.parsed}{note}")
        else:
            lines.append(f"  DIFFERS   {item.what}: states {item.stated}, but its lists hold {item.parsed}{note}")
    differ = sum(not item.ok for item in document.reconciliation)
    if differ:
        lines.append(
            f"  {differ} of the {len(document.reconciliation)} totals this {document.kind} states differ from what "
            f"its own lists hold. That is a fact about the {document.kind}, not an error: it is still "
            f"ingested, with what its lists hold, and the totals it states are kept as stated."
        )
    return "\n".join(lines)


def cmd_ingest(args: argparse.Namespace) -> int:
    from paperkg.run.ingest import ingest_paths

    if args.bulk and (args.follow_links or args.no_changes):
        raise CommandError(
            "--bulk reads the paths as `paperkg export --admin-import` does: no --follow-links or --no-changes"
        )
    return _run_ingestion(args, ingest_paths, args.paths)


def cmd_sync(args: argparse.Namespace) -> int:
    from paperkg.run.ingest import sync_directory

    if not os.path.isdir(args.directory):  # before connecting, which may start the server
        raise CommandError(f"{args.directory}: not a directory")
    code = _run_ingestion(args, sync_directory, args.directory)
    if args.analyze:
        _analyze(quiet=args.quiet, to_stderr=args.json)
    return code


def _run_ingestion(args: argparse.Namespace, run: Callable, target) -> int:
    from paperkg.run.connection import connect
    from paperkg.run.ingest import RunOptions

    _require_paths([target] if isinstance(target, str) else target)
    options = RunOptions(
        progress=not args.quiet and not args.json and sys.stderr.isatty(),
        docs_per_transaction=args.batch,
        max_bytes=args.max_bytes,
        lock_wait=args.wait,
        follow_links=args.follow_links,
        record_changes=not args.no_changes,
        checksum=args.checksum,
        bulk=getattr(args, "bulk", False),
        transactions=getattr(args, "transactions", False),
    )
    with connect() as kb:
        report = run(kb, target, options)
    return _print_report(args, report)


def _require_paths(paths: list[str]) -> None:
    """Each path exists; checked before connecting, which may first start the managed server."""
    for path in paths:
        if not os.path.exists(path):
            raise CommandError(f"{path}: no such file or directory")


def _print_report(args: argparse.Namespace, report) -> int:
    if args.json:
        report.write_json(sys.stdout)
    else:
        for document in report.documents:
            if document.error:
                print(f"paperkg: rejected: {document.error}", file=sys.stderr)
        if not args.quiet:
            print(_summary(report))
    return EXIT_OK if report.ok else EXIT_FAILED


# The documents' mention counts by the names the writer gives them, in words.
MENTIONS = {
    "papers": "papers",
    "paper_cites": "citations between papers",
    "claims": "claims",
    "claim_cites": "claim citations",
    "checks": "checks",
    "sources": "sources",
    "refers_to": "sources matched to a work",
}


def _summary(report) -> str:
    """The run in three lines: the documents (and that they were loaded in bulk or imported
    offline, when they were), what landed in the graph (as `paperkg stats` counts it), and what
    the documents mention (one work mentioned by two documents is one node). The export of
    those two paths does not count the mentions of each document: their summary has the first
    two lines."""
    from paperkg.load.bulk import BulkLoader
    from paperkg.load.import_run import IMPORT_LOADER

    totals = report.totals
    retracted = f", {totals['retracted']} retracted" if totals["retracted"] else ""
    bulk = {BulkLoader.name: ", loaded in bulk", IMPORT_LOADER: ", imported offline"}.get(report.loader, "")
    lines = [
        f"{totals['seen']} documents{bulk}: {totals['new']} new, {totals['changed']} changed, "
        f"{totals['unchanged']} unchanged, {totals['rejected']} rejected{retracted}"
    ]
    change = report.graph_change
    nodes = ", ".join(f"{count:+,} {label}" for label, count in change.get("nodes", {}).items() if label != "IngestRun")
    relationships = ", ".join(f"{count:+,} {kind}" for kind, count in change.get("relationships", {}).items())
    landed = "; ".join(
        part for part in (nodes and f"nodes {nodes}", relationships and f"relationships {relationships}") if part
    )
    if report.unchanged_not_read:
        lines.append(
            f"{report.unchanged_not_read:,} unchanged files not read: their size and times are those they "
            "had when last read (--checksum reads them)"
        )
    lines.append(f"graph: {landed or 'unchanged'}")
    if report.identity["merged"] or report.identity["split"]:
        lines.append(
            f"identity: {report.identity['merged']:,} nodes merged into the work they are, "
            f"{report.identity['split']:,} split into the works they hold (paperkg explain PAPER says why)"
        )
    if report.answers_refreshed:
        lines.append(
            f"precomputed answers computed again in {report.answers_seconds:.1f} s: {', '.join(report.answers_refreshed)}"
        )
    written = report.rows_written
    mentions = ", ".join(f"{written[name]:,} {words}" for name, words in MENTIONS.items() if written.get(name))
    if mentions:
        lines.append(f"the new and changed documents mention {mentions}")
    return "\n".join(lines)


def cmd_precompute(args: argparse.Namespace) -> int:
    from paperkg.run.answers import answers, drop, precompute
    from paperkg.run.connection import connect

    with connect() as kb:
        if args.drop:
            print(f"{drop(kb)} precomputed answers removed: the queries run themselves again")
            return EXIT_OK
        if args.list:
            for row in answers(kb):
                state = "current" if row["current"] else "outdated (the query runs itself)"
                print(
                    f"{row['query']}: {state}, {row['rows']} rows, computed in {row['seconds']:.2f} s "
                    f"at {row['computed_at'].isoformat(timespec='seconds')}"
                )
            return EXIT_OK
        computed = precompute(kb, args.queries or None, lock_wait=args.wait)
    for answer in computed:
        print(f"{answer.query}: {answer.rows} rows in {answer.seconds:.2f} s")
    print(
        f"{len(computed)} answers stored: with their default parameters these queries read them "
        "until the graph changes; ingest and sync compute them again"
    )
    return EXIT_OK


def cmd_explain(args: argparse.Namespace) -> int:
    """The `identity` query, told as a story: the work's identifiers, then its mentions by rule."""
    from paperkg.run.connection import connect

    with connect() as kb:
        rows = kb.query("identity", paper=args.paper)
    first = rows[0]
    dois = ", ".join(first["dois"]) or "none"
    print(f"{first['paper_id']}: arXiv {first['arxiv_id'] or 'none'}; DOIs {dois}")
    for rule in dict.fromkeys(row["rule"] for row in rows):
        mentions = [row for row in rows if row["rule"] == rule]
        print(f"  joined by {rule} ({len(mentions)} mention{'s' if len(mentions) != 1 else ''})")
        for shown in dict.fromkeys(path for row in mentions for path in row["shown_by"]):
            print(f"    shown by {shown}")
        for row in mentions:
            evidence = [
                f"{name} {row[f'evidence_{name}']}"
                for name in ("arxiv_id", "doi", "title", "year")
                if row[f"evidence_{name}"] is not None
            ]
            lines = ", ".join(str(line) for line in row["lines"] or [])
            print(f"    {row['document']} line {lines}: {'; '.join(evidence) or 'no identifier'}")
    return EXIT_OK


def cmd_export(args: argparse.Namespace) -> int:
    if args.graphml or args.vosviewer:
        return cmd_export_subgraph(args)
    if args.query or args.param:
        raise CommandError("--query and -p name the subgraph that --graphml FILE or --vosviewer FILE writes")
    if args.rdf:
        return cmd_export_rdf(args)
    if not args.admin_import or not args.paths:
        raise CommandError(
            "export needs --admin-import DIR and PATH... (or --rdf FILE, --graphml FILE, --vosviewer FILE)"
        )
    if args.load:
        return cmd_export_load(args)
    from paperkg.load.admin_import import export_admin_import

    summary = export_admin_import(args.paths, args.admin_import, max_bytes=args.max_bytes, processes=args.processes)
    _print_export(summary)
    print(
        f"to import: --load (the managed server), or for another Neo4j, stopped: "
        f"neo4j-admin @{summary.arguments_file}, then start it and run `paperkg schema`"
    )
    return EXIT_FAILED if summary.rejected else EXIT_OK


def cmd_export_load(args: argparse.Namespace) -> int:
    """`export --admin-import DIR PATH... --load`: the export imported into the managed server,
    holding the ingestion lock of the graph it replaces and then of the imported one."""
    from paperkg.corpus.discovery import discover
    from paperkg.load.admin_import import AdminImportLoader
    from paperkg.load.loader import LoadOptions
    from paperkg.run.connection import connect
    from paperkg.run.lock import IngestLock

    discovery = discover(args.paths)
    with connect() as kb, IngestLock(kb) as lock:
        options = LoadOptions(max_bytes=args.max_bytes, processes=args.processes)
        loader = AdminImportLoader(kb, lock, Path(args.admin_import), options)
        parts = loader.load(discovery.files, str(uuid.uuid4()))
        next(parts)  # the export is written: what it rejected and wrote is known before the import
        summary = loader.summary
        summary.rejected[:0] = discovery.rejected
        _print_export(summary)
        for _ in parts:  # the import
            pass
    print(
        f"imported into the managed server in {loader.instance.home}; for a large graph, "
        "`paperkg precompute` stores the slow answers and `paperkg warm` fills the page cache"
    )
    return EXIT_FAILED if summary.rejected else EXIT_OK


def _print_export(summary: ExportSummary) -> None:
    for rejected in summary.rejected:
        print(f"paperkg: rejected: {rejected.error}", file=sys.stderr)
    print(summary.describe())


def cmd_export_subgraph(args: argparse.Namespace) -> int:
    """`export --graphml FILE` / `--vosviewer FILE`: a library query's subgraph (paperkg.export)."""
    from paperkg.library import library

    if args.admin_import or args.paths or args.load or args.rdf:
        raise CommandError(
            "--graphml and --vosviewer export a query's subgraph: give them --query NAME, not PATH or --admin-import, --load, --rdf"
        )
    if not args.query:
        raise CommandError("--graphml and --vosviewer need --query NAME (and its -p KEY=VALUE parameters)")
    targets = [
        (fmt, target) for fmt, target in (("GraphML", args.graphml), ("VOSviewer JSON", args.vosviewer)) if target
    ]
    for _, target in targets:
        if not Path(target).resolve().parent.is_dir():
            raise CommandError(f"cannot write {target}: its directory does not exist")
    lib = library()
    try:
        params = lib.get(args.query).parse_cli(args.param)  # bad parameters fail before connecting
        from paperkg.export import write_graphml, write_vosviewer
        from paperkg.run.connection import connect

        with connect() as kb:
            for fmt, target in targets:
                write = write_graphml if fmt == "GraphML" else write_vosviewer
                nodes, links = write(kb, target, args.query, **params)
                kinds = ("nodes", "edges") if fmt == "GraphML" else ("items", "links")
                print(f"wrote {nodes:,} {kinds[0]} and {links:,} {kinds[1]} ({fmt}) to {target}")
    except OSError as exc:
        raise CommandError(f"cannot write {exc.filename}: {exc.strerror}") from None
    return EXIT_OK


def cmd_export_rdf(args: argparse.Namespace) -> int:
    if args.admin_import or args.paths or args.load:
        raise CommandError(
            "--rdf exports the database's claim-support layer: give it no PATH, --admin-import or --load"
        )
    if not Path(args.rdf).resolve().parent.is_dir():
        raise CommandError(f"cannot write {args.rdf}: its directory does not exist")
    from paperkg.run.connection import connect

    try:
        from paperkg.rdf import export_turtle

        with connect() as kb:
            triples = export_turtle(kb, args.rdf)
    except OSError as exc:
        raise CommandError(f"cannot write {args.rdf}: {exc.strerror}") from None
    print(f"wrote {triples:,} triples (CiTO, Turtle) to {args.rdf}")
    return EXIT_OK


# -- analysis ------------------------------------------------------------------------------


def cmd_analyze(args: argparse.Namespace) -> int:
    report = _analyze(quiet=args.json, to_stderr=False, key_routes=args.key_routes)
    if args.json:
        print(json.dumps(report.__dict__, indent=2))
    return EXIT_OK


def _analyze(quiet: bool, to_stderr: bool, key_routes: int | None = None):
    from paperkg.run.connection import connect

    from .analysis import KEY_ROUTES, analyze

    with connect() as kb:
        report = analyze(kb, key_routes=key_routes or KEY_ROUTES)
    if not quiet:
        print(report.describe(), file=sys.stderr if to_stderr else sys.stdout)
    return report


def cmd_main_path(args: argparse.Namespace) -> int:
    from paperkg.run.connection import connect

    from .analysis import main_path, main_path_rows, project
    from .library import Result, library

    with connect() as kb:
        paper = library().resolve_paper(kb, args.paper) if args.paper else None
        projection = project(kb, paper=paper, depth=args.depth)
    rows = main_path_rows(projection, main_path(projection, args.key_routes), args.kind)
    if args.html:
        from .show import Picture, path_subgraph

        with connect() as kb:
            path = Picture(path_subgraph(kb, "main-path", rows, anchors=[paper] if paper else [])).save(args.html)
        print(f"wrote {path}")
        return EXIT_OK
    print(Result(rows, ["position", "year", "title", "paper_id", "leads_to", "spc"]).render(args.format))
    return EXIT_OK


# -- graph maintenance ---------------------------------------------------------------------


def cmd_schema(args: argparse.Namespace) -> int:
    from paperkg.load.import_run import record_import
    from paperkg.load.schema import apply_schema
    from paperkg.run.connection import connect

    with connect() as kb:
        apply_schema(kb)
        imported = record_import(kb)  # after an import by neo4j-admin (export --admin-import)
    print("schema applied: constraints and indexes online")
    if imported:
        print(f"the import is recorded as run {', '.join(imported)} (`paperkg runs`)")
    return EXIT_OK


def cmd_stats(args: argparse.Namespace) -> int:
    from paperkg.run.connection import connect

    with connect() as kb:
        stats = kb.stats()
        unfinished = kb.read("unfinished_loads")
    # On stderr: the counts below are what the graph holds now. A load whose holder is gone was
    # finished or undone as the command connected; these are running.
    for load in unfinished:
        what = "an offline import" if load["kind"] == "import" else "a bulk load"
        print(
            f"paperkg: {what} (run {load['load']}, pid {load['pid']} on {load['host']}) is running and has not "
            "finished",
            file=sys.stderr,
        )
    if args.json:
        print(json.dumps(stats, indent=2))
    else:
        for group, counts in stats.items():
            for name, count in counts.items():
                print(f"{group[:-1]:<13} {name:<16} {count:>10,}")
    return EXIT_OK


def cmd_warm(args: argparse.Namespace) -> int:
    from paperkg.run.connection import connect

    with connect() as kb:
        parts = kb.warm()
    for part in parts:
        values = f", {part['properties']:,} property values" if part["properties"] else ""
        records = f"{part['records']:,} record{'' if part['records'] == 1 else 's'}"
        print(f"{part['part']}: {records}{values} in {part['seconds']:.1f} s")
    print(
        f"read in {sum(part['seconds'] for part in parts):.1f} s: the server's page cache now holds what "
        "the library's queries read, as far as it fits"
    )
    return EXIT_OK


def cmd_reset(args: argparse.Namespace) -> int:
    if not args.yes:
        raise CommandError("reset deletes every node and relationship; pass --yes to confirm")
    from paperkg.run.connection import connect

    with connect() as kb:
        kb.reset()
    print("graph emptied")
    return EXIT_OK


# -- history -------------------------------------------------------------------------------


def cmd_runs(args: argparse.Namespace) -> int:
    from paperkg.run.connection import connect

    from .history import runs

    with connect() as kb:
        history = runs(kb, limit=args.limit)
    if args.json:
        print(json.dumps(history, indent=2, ensure_ascii=False))
        return EXIT_OK
    for run in history:
        took = f"{run['seconds']:.0f} s" if run["seconds"] is not None else "-"
        totals = run["totals"]
        counted = (
            " ".join(f"{key} {totals[key]}" for key in ("new", "changed", "unchanged", "rejected", "retracted"))
            if totals
            else f"{run['change_sets']} transactions committed"
        )
        error = f" ({run['error']})" if run["error"] else ""
        exit_code = "-" if run["exit_code"] is None else run["exit_code"]
        print(
            f"{run['run_id']}  {run['started_at']}  {took:>6}  {run['loader'] or '-':<12}  "
            f"exit {exit_code} {run['status']}{error}  {counted}  changes {run['changes']}"
        )
    return EXIT_OK


def cmd_changes(args: argparse.Namespace) -> int:
    from paperkg.run.connection import connect

    from .history import changes, describe, find_run

    with connect() as kb:
        rows = changes(kb, since=args.since, run=args.run, paper=args.paper)
        unfinished = args.run is not None and find_run(kb, args.run)["status"] in ("failed", "did not finish")
    if args.json:
        print(json.dumps({"complete": not unfinished, "changes": rows}, indent=2, ensure_ascii=False))
        return EXIT_OK
    if unfinished:
        print("this run did not finish: these are the changes of the transactions it committed", file=sys.stderr)
    for row in rows:
        print(describe(row))
    if not rows:
        print("no changes")
    return EXIT_OK


def cmd_digest(args: argparse.Namespace) -> int:
    from paperkg.run.connection import connect

    from .history import digest

    with connect() as kb:
        found = digest(kb, since=args.since, watch=args.watch)
    text = found.html() if args.format == "html" else found.markdown()
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
        print(f"wrote {args.out}")
    else:
        sys.stdout.write(text)
    return EXIT_OK


# -- queries -------------------------------------------------------------------------------


def cmd_query(args: argparse.Namespace) -> int:
    from paperkg.library import library
    from paperkg.run.connection import connect

    lib = library()
    if args.list:
        print(lib.describe())
        return EXIT_OK
    if not args.name:
        raise CommandError("name a query to run, or list them with `paperkg query --list`")
    params = lib.get(args.name).parse_cli(args.param)  # bad parameters fail before connecting
    with connect() as kb:
        result = lib.run(kb, args.name, **params)
    print(result.render(args.format))
    if result.precomputed_at and sys.stderr.isatty():
        when = result.precomputed_at.isoformat(timespec="seconds")
        print(f"paperkg: the answer `paperkg precompute` stored, current, computed at {when}", file=sys.stderr)
    return EXIT_OK


def cmd_search(args: argparse.Namespace) -> int:
    """`paperkg search WORDS [--status …]`: `paperkg query search_claims` with its parameters as options."""
    from paperkg.library import library
    from paperkg.run.connection import connect

    given = {"status": args.status, "paper": args.paper, "since": args.since, "until": args.until, "limit": args.limit}
    params = {"text": args.text} | {name: value for name, value in given.items() if value is not None}
    library().get(SEARCH_QUERY).bind(params)  # bad parameters fail before connecting
    with connect() as kb:
        result = library().run(kb, SEARCH_QUERY, **params)
    print(result.render(args.format))
    return EXIT_OK


SEARCH_QUERY = "search_claims"


def cmd_show(args: argparse.Namespace) -> int:
    from paperkg.library import library
    from paperkg.run.connection import connect
    from paperkg.show import picture

    lib = library()
    params = lib.get(args.name).parse_cli(args.param)  # bad parameters fail before connecting
    if not Path(args.html).resolve().parent.is_dir():
        raise CommandError(f"cannot write {args.html}: its directory does not exist")
    with connect() as kb:
        path = picture(kb, args.name, **params).save(args.html)
    print(f"wrote {path}")
    return EXIT_OK


# -- wiring --------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="paperkg",
        description="A knowledge base of scholarly papers, claims and sources in Neo4j.",
        epilog="example: paperkg ingest examples/corpus && paperkg query ancestors -p paper=2402.06618",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"paperkg {__version__}")
    parser.add_argument("--verbose", action="store_true", help="show tracebacks for errors")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, handler: Callable[[argparse.Namespace], int], help: str, example: str):
        sub = commands.add_parser(
            name,
            help=help,
            description=help,
            epilog=f"example: {example}",
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        sub.set_defaults(handler=handler)
        return sub

    db = command(
        "db",
        cmd_db,
        "run the managed local Neo4j (start | stop | status)",
        "paperkg db start --bolt-port 7688 --http-port 7475",
    )
    db.add_argument("action", choices=["start", "stop", "status"])
    db.add_argument("--home", help="instance home (default: $PAPERKG_HOME or ~/.local/share/paperkg)")
    db.add_argument("--bolt-port", type=int, help="Bolt port on 127.0.0.1 (default 7687, or the home's last)")
    db.add_argument("--http-port", type=int, help="HTTP port on 127.0.0.1 (default 7474, or the home's last)")
    db.add_argument("--heap", help="JVM heap size (default 1g, or the home's last)")
    db.add_argument("--pagecache", help="page cache size (default 512m, or the home's last)")

    parse = command(
        "parse",
        cmd_parse,
        "parse documents and print the models and their reconciliation",
        "paperkg parse examples/corpus/page_2311.11873.txt",
    )
    parse.add_argument("files", nargs="*", metavar="FILE")
    parse.add_argument("--json", action="store_true", help="print the parsed models as JSON")
    parse.add_argument("--schema", action="store_true", help="print the JSON schema of the models")

    ingest = command(
        "ingest", cmd_ingest, "ingest files and directories into the graph", "paperkg ingest examples/corpus --json"
    )
    ingest.add_argument("paths", nargs="+", metavar="PATH")
    path = ingest.add_mutually_exclusive_group()
    path.add_argument(
        "--bulk",
        action="store_true",
        help="a first load into the managed server's empty graph: identity resolved over the whole corpus "
        "in memory, then CSV files the server reads, creating every node and relationship (faster; memory "
        f"grows with the corpus; taken on its own from {BULK_MIN_DOCUMENTS:,} documents into that empty graph, "
        f"and from {OFFLINE_MIN_DOCUMENTS:,} the offline import instead, which restarts the server: --bulk "
        "keeps it online)",
    )
    path.add_argument(
        "--transactions",
        action="store_true",
        help="write in transactions, a batch at a time, even where the bulk load or the offline import would "
        "be faster (memory follows the batch, not the corpus)",
    )
    sync = command(
        "sync",
        cmd_sync,
        "the periodic job: ingest a directory, retract documents whose files "
        "are gone; exit 0 ok, 1 a document rejected, 2 no connection, 75 another run holds the lock",
        "paperkg sync examples/corpus --json --wait 600",
    )
    sync.add_argument("directory", metavar="DIR")
    for sub in (ingest, sync):
        sub.add_argument("--json", action="store_true", help="print a JSON report, one entry per document")
        sub.add_argument("--quiet", action="store_true", help="no progress bar and no summary line")
        sub.add_argument(
            "--batch",
            type=int,
            default=DOCS_PER_TRANSACTION,
            help=f"documents per transaction (default {DOCS_PER_TRANSACTION})",
        )
        sub.add_argument(
            "--wait",
            type=float,
            default=0,
            metavar="SECONDS",
            help="wait this long for another ingestion to finish (default: exit 75 at once)",
        )
        sub.add_argument(
            "--max-bytes",
            type=int,
            default=MAX_DOCUMENT_BYTES,
            metavar="N",
            help=f"reject documents larger than this (default {MAX_DOCUMENT_BYTES:,})",
        )
        sub.add_argument(
            "--follow-links",
            action="store_true",
            help="read links to files outside the directory (default: rejected, never read)",
        )
        sub.add_argument(
            "--no-changes",
            action="store_true",
            help="do not store the run's change set (`paperkg changes` will not show this run)",
        )
        sub.add_argument(
            "--checksum",
            action="store_true",
            help="read and hash every file (default: a file whose size and times are those it had when "
            "last read is taken to be unchanged, unread)",
        )

    runs = command(
        "runs",
        cmd_runs,
        "the run history, newest first: when, how long, totals, exit status",
        "paperkg runs --limit 10",
    )
    runs.add_argument("--limit", type=int, default=50, help="the most runs to list (default 50)")
    runs.add_argument("--json", action="store_true", help="print JSON")
    changes = command(
        "changes",
        cmd_changes,
        "what the runs changed: works, citations, claim statuses, verdicts, merges (net of changes that cancelled)",
        "paperkg changes --since 7d --paper 2402.06618",
    )
    changes.add_argument(
        "--since",
        metavar="RUN|DATE|7d",
        help="changes after this run, since this date (UTC) or this long ago (12h, 7d, 2w)",
    )
    changes.add_argument("--run", metavar="RUN", help="only this run's changes (a run id or a prefix of one)")
    changes.add_argument("--paper", help="only changes concerning this paper (arXiv id, DOI or paper_id)")
    changes.add_argument("--json", action="store_true", help="print JSON")
    digest = command(
        "digest",
        cmd_digest,
        "what a researcher reads on Monday: new works citing the watched "
        "papers, new unsupported claims, flipped verdicts, merges",
        "paperkg digest --since 7d --watch 2402.06618 --format html --out digest.html",
    )
    digest.add_argument("--since", required=True, metavar="RUN|DATE|7d", help="the period: as for `changes`")
    digest.add_argument(
        "--watch",
        action="append",
        default=[],
        metavar="PAPER",
        help="a paper to follow (repeatable; default: the whole corpus)",
    )
    digest.add_argument(
        "--format", choices=["md", "html"], default="md", help="Markdown or a self-contained HTML page (default md)"
    )
    digest.add_argument("--out", metavar="FILE", help="write to this file (default: standard output)")

    sync.add_argument(
        "--analyze",
        action="store_true",
        help="then run `paperkg analyze` (influence, clusters, main path) on the graph",
    )
    analyze = command(
        "analyze",
        cmd_analyze,
        "compute PageRank, co-citation and coupling clusters and the main "
        "path of the citation graph and write them to the papers (needs paperkg[analysis])",
        "paperkg analyze; paperkg query top_papers",
    )
    analyze.add_argument(
        "--key-routes",
        type=int,
        default=None,
        metavar="K",
        help="top-SPC edges the key-route main path starts from (default 10)",
    )
    analyze.add_argument("--json", action="store_true", help="print the run's figures as JSON")
    main_path = command(
        "main-path",
        cmd_main_path,
        "the main path (search path count) of the citation graph, or "
        "of one paper's lineage, in order (needs paperkg[analysis])",
        "paperkg main-path --paper 2402.06618 --depth 3 --kind key_route",
    )
    main_path.add_argument("--paper", help="only this paper's lineage (arXiv id, DOI or paper_id)")
    main_path.add_argument("--depth", type=int, default=3, help="citation steps of the lineage (default 3)")
    main_path.add_argument(
        "--kind",
        choices=["global", "key_route"],
        default="global",
        help="the global main path or the key-route main path (default global)",
    )
    main_path.add_argument(
        "--key-routes",
        type=int,
        default=10,
        metavar="K",
        help="top-SPC edges the key-route main path starts from (default 10)",
    )
    main_path.add_argument(
        "--format", choices=["table", "json", "csv"], default="table", help="output format (default table)"
    )
    main_path.add_argument(
        "--html", metavar="FILE", help="draw the path instead, as `paperkg show` does (needs paperkg[viz])"
    )

    explain = command(
        "explain",
        cmd_explain,
        "why a work is one node: its identifiers, each mention with its "
        "document and lines, and the rule that joined it",
        "paperkg explain 2402.06618",
    )
    explain.add_argument("paper", help="the paper (arXiv id, DOI or paper_id)")

    export = command(
        "export",
        cmd_export,
        "write a corpus's graph as CSV files for neo4j-admin's offline import "
        "(a very large first load; replaces the database), the database's claim-support "
        "layer as CiTO RDF (--rdf, needs paperkg[rdf]), or a library query's subgraph as "
        "GraphML (--graphml) or a VOSviewer JSON map (--vosviewer)",
        "paperkg export --admin-import /tmp/import examples/corpus --load; paperkg export --rdf claims.ttl; "
        "paperkg export --graphml lineage.graphml --query ancestors -p paper=2402.06618",
    )
    export.add_argument("paths", nargs="*", metavar="PATH", help="with --admin-import: files and directories")
    export.add_argument("--admin-import", metavar="DIR", help="directory for the CSV files")
    export.add_argument(
        "--rdf",
        metavar="FILE",
        help="write the claim-support layer as Turtle (cito:cites, cito:citesAsEvidence, cito:supports)",
    )
    export.add_argument(
        "--graphml",
        metavar="FILE",
        help="write the subgraph of --query (as `paperkg show` draws it) as GraphML, with the analysis' properties",
    )
    export.add_argument(
        "--vosviewer",
        metavar="FILE",
        help="write the subgraph of --query as a VOSviewer JSON map (items, links, co-citation clusters)",
    )
    export.add_argument("--query", metavar="NAME", help="with --graphml/--vosviewer: the library query")
    export.add_argument(
        "-p", "--param", action="append", default=[], metavar="KEY=VALUE", help="a parameter of --query (repeatable)"
    )
    export.add_argument(
        "--load",
        action="store_true",
        help="then replace the managed server's database with them (stops and restarts it)",
    )
    export.add_argument(
        "--max-bytes",
        type=int,
        default=MAX_DOCUMENT_BYTES,
        metavar="N",
        help=f"reject documents larger than this (default {MAX_DOCUMENT_BYTES:,})",
    )
    export.add_argument(
        "--processes",
        type=int,
        metavar="N",
        help="with --admin-import: processes that parse and combine (default: one per CPU)",
    )

    precompute = command(
        "precompute",
        cmd_precompute,
        "store the corpus-wide answers of the slowest library queries (for large graphs); "
        "ingest and sync keep them current",
        "paperkg precompute; paperkg query cocitation_pairs",
    )
    precompute.add_argument("queries", nargs="*", metavar="QUERY", help="only these queries (default: every one)")
    precompute.add_argument("--list", action="store_true", help="list the stored answers")
    precompute.add_argument("--drop", action="store_true", help="remove every stored answer")
    precompute.add_argument(
        "--wait",
        type=float,
        default=0,
        metavar="SECONDS",
        help="wait this long for a running ingestion to finish (default: exit 75 at once)",
    )
    command("schema", cmd_schema, "create the constraints and indexes (idempotent)", "paperkg schema")
    stats = command("stats", cmd_stats, "count nodes per label and relationships per type", "paperkg stats --json")
    stats.add_argument("--json", action="store_true", help="print JSON")
    command(
        "warm",
        cmd_warm,
        "read what the library's queries read into the server's page cache (a large graph, after a start)",
        "paperkg warm",
    )
    reset = command("reset", cmd_reset, "delete every node and relationship", "paperkg reset --yes")
    reset.add_argument("--yes", action="store_true", help="confirm")
    query = command(
        "query",
        cmd_query,
        "run a library query by name (--list shows them all)",
        "paperkg query ancestors -p paper=2402.06618 -p depth=3 --format json",
    )
    query.add_argument("name", nargs="?", metavar="NAME", help="the query to run")
    query.add_argument(
        "-p",
        "--param",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a parameter (repeatable); a paper as arXiv id, DOI or paper_id",
    )
    query.add_argument(
        "--format", choices=["table", "json", "csv"], default="table", help="output format (default table)"
    )
    query.add_argument("--list", action="store_true", help="list the queries with their parameters")
    search = command(
        "search",
        cmd_search,
        "find claims by words in their text, quotes and check notes (`paperkg query search_claims`); "
        'Lucene syntax: words, "phrases", AND, OR, NOT, prefix*; case, accents and hyphens do not matter',
        'paperkg search "synthetic root*" --status unsupported',
    )
    search.add_argument("text", metavar="TEXT", help="the words to look for (quote them for the shell)")
    search.add_argument(
        "--status",
        help="only claims with this status: supported, checked_unlisted, unsupported, unverifiable, "
        "uncited or sources_missing",
    )
    search.add_argument("--paper", help="only this paper's claims (arXiv id, DOI or paper_id)")
    search.add_argument("--since", type=int, metavar="YEAR", help="only claims of papers published in YEAR or later")
    search.add_argument("--until", type=int, metavar="YEAR", help="only claims of papers published in YEAR or earlier")
    search.add_argument("--limit", type=int, help="the most rows to return (default 50)")
    search.add_argument(
        "--format", choices=["table", "json", "csv"], default="table", help="output format (default table)"
    )
    show = command(
        "show",
        cmd_show,
        "draw a library query's subgraph as an interactive HTML graph (needs paperkg[viz]); "
        "main_path draws the main path in order, left to right",
        "paperkg show unsupported_claims -p paper=2405.01127 --html claims.html; "
        "paperkg show main_path -p kind=key_route --html main_path.html",
    )
    show.add_argument("name", metavar="NAME", help="the library query whose rows to draw")
    show.add_argument(
        "-p", "--param", action="append", default=[], metavar="KEY=VALUE", help="a query parameter (repeatable)"
    )
    show.add_argument("--html", required=True, metavar="FILE", help="the HTML file to write")
    completion = command(
        "completion", cmd_completion, "print a shell completion script", 'eval "$(paperkg completion bash)"'
    )
    completion.add_argument("shell", choices=["bash"])
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    import logging

    with _without_dataframe_libraries():
        from neo4j.exceptions import DriverError, Neo4jError

    from paperkg.db import ConnectionFailed, first_line

    neo4j_log = logging.getLogger("neo4j")
    if not args.verbose and not neo4j_log.handlers:
        # The driver logs each retry of a transaction as a warning, which Python would print to
        # stderr; an error that outlasts the retries is reported once, below.
        neo4j_log.addHandler(logging.NullHandler())
    paperkg_log = logging.getLogger("paperkg")
    if not paperkg_log.handlers:
        warnings = logging.StreamHandler(sys.stderr)
        warnings.setFormatter(logging.Formatter("paperkg: warning: %(message)s"))
        paperkg_log.addHandler(warnings)
        paperkg_log.propagate = False
    try:
        code = args.handler(args)
        sys.stdout.flush()  # a closed pipe shows here, while it can still be caught
        return code
    except BrokenPipeError:
        # The reader (`| head`) has what it wanted. End as a Unix filter does when its reader
        # goes (128 + SIGPIPE), and keep Python from reporting the pipe again at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_PIPE_CLOSED
    except PaperkgError as exc:
        return _fail(args, exc, exc.exit_code)
    except FileNotFoundError as exc:  # a path named on the command line, gone before it was read
        return _fail(args, exc, EXIT_USAGE)
    except DriverError as exc:  # the connection broke mid-command
        return _fail(args, ConnectionFailed(f"lost the connection to Neo4j: {first_line(exc)}"), EXIT_USAGE)
    except Neo4jError as exc:
        # The server's own sentence (str(exc) is a dump of codes and GQL statuses).
        return _fail(args, f"Neo4j refused the request: {exc.message or first_line(exc)}", EXIT_USAGE)
    except KeyboardInterrupt:
        print("paperkg: interrupted", file=sys.stderr)
        return 130


@contextmanager
def _without_dataframe_libraries() -> Iterator[None]:
    """Import the driver as if numpy, pandas and pyarrow were not installed: where they are, it
    imports them at start-up for DataFrame results (most of a command's start-up time), which
    the command line never asks it for. Later imports of them work as usual."""
    hidden = [name for name in DATAFRAME_LIBRARIES if name not in sys.modules]
    # None in sys.modules makes `import name` raise ImportError (the import system's way of
    # blocking a module); typeshed types its values as modules only.
    sys.modules.update(dict.fromkeys(hidden))  # type: ignore[arg-type]
    try:
        yield
    finally:
        for name in hidden:
            if sys.modules.get(name, False) is None:
                del sys.modules[name]


DATAFRAME_LIBRARIES = ("numpy", "pandas", "pyarrow")


def _fail(args: argparse.Namespace, exc: Exception | str, code: int) -> int:
    if args.verbose and isinstance(exc, BaseException):
        import traceback

        traceback.print_exception(exc)
    prefix = "paperkg: error:"
    if sys.stderr.isatty() and not os.environ.get("NO_COLOR"):
        prefix = f"\033[31m{prefix}\033[0m"
    print(f"{prefix} {exc}", file=sys.stderr)
    return code


# -- shell completion ----------------------------------------------------------------------

BASH_COMPLETION = """# bash completion for paperkg: eval "$(paperkg completion bash)"
_paperkg() {{
    local cur=${{COMP_WORDS[COMP_CWORD]}} command=${{COMP_WORDS[1]}}
    if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "{commands} --help --version --verbose" -- "$cur"))
        return
    fi
    case "$command" in
{cases}
    esac
    COMPREPLY=($(compgen -f -- "$cur"))
}}
complete -o filenames -F _paperkg paperkg
"""


def cmd_completion(args: argparse.Namespace) -> int:
    """Print a bash completion script generated from the argument parser itself."""
    parser = build_parser()
    subcommands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    cases = []
    for name, sub in subcommands.choices.items():
        words = [option for action in sub._actions for option in action.option_strings]
        words += [
            choice
            for action in sub._actions
            if not action.option_strings and action.choices
            for choice in action.choices
        ]
        cases.append(f'        {name}) COMPREPLY=($(compgen -W "{" ".join(words)}" -f -- "$cur")); return;;')
    print(BASH_COMPLETION.format(commands=" ".join(subcommands.choices), cases="\n".join(cases)), end="")
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
