"""`paperkg export --admin-import`: CSV files for neo4j-admin that give the graph ingestion gives."""

from __future__ import annotations

import csv
import shutil
import socket
import time
from collections import Counter
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest
from change_oracle import differences, graph_state
from conftest import free_port
from test_file_hashes import SETTLE
from test_ingest import PAGE, SEVEN_WORKS
from test_reliability import STALE_LOCK

from paperkg.cli import _summary, main
from paperkg.corpus.discovery import discover
from paperkg.db import connect
from paperkg.history import changes, runs
from paperkg.load import admin_import
from paperkg.load.admin_import import (
    ARRAY_DELIMITER,
    LOCK_COLUMNS,
    NODES,
    RELATIONSHIPS,
    AdminImportLoader,
    ExportError,
    export_admin_import,
    finish_import,
    import_into,
    run_export_directory,
)
from paperkg.load.graph_format import GRAPH_FORMAT, RELEASE
from paperkg.run.ingest import RunOptions, ingest_paths, sync_directory
from paperkg.run.lock import IngestLock
from paperkg.server import Instance

from graph_dump import dump
from procs import lock_holder
from procs import start as start_command

INVENTED = Path(__file__).parent / "fixtures" / "changes"


def states(rows) -> set[tuple]:
    return {(r["entity"], r["key"], r["before"], r["after"]) for r in rows}


def read(path: Path) -> list[dict[str, str | None]]:
    """Rows by header name (with its type suffix); an empty field (no property) is None."""
    with open(path, encoding="utf-8", newline="") as handle:
        header, *rows = csv.reader(handle)
    return [{name: value or None for name, value in zip(header, row)} for row in rows]


@pytest.fixture(scope="module")
def exported(tmp_path_factory, seeds_dir) -> Path:
    out = tmp_path_factory.mktemp("admin-import")
    assert main(["export", "--admin-import", str(out), str(seeds_dir)]) == 0
    return out


def test_the_files_hold_the_model_figures(exported):
    claims = read(exported / "claims.csv")
    page_claims = {
        row[":END_ID(Claim)"] for row in read(exported / "makes.csv") if row[":START_ID(Paper)"] == f"arxiv:{PAGE}"
    }
    assert len(claims) == len(page_claims) == 240
    assert Counter(row["kind:string"] for row in claims) == {"Premise": 111, "Interpretation": 110, None: 19}
    assert Counter(row["substantial:boolean"] for row in claims) == {"true": 71, "false": 150, None: 19}
    flags = Counter(
        flag for row in claims if row["flags:string[]"] for flag in row["flags:string[]"].split(ARRAY_DELIMITER)
    )
    assert flags == {"probably_not_substantial": 85, "two_claims_in_one": 39, "quote_partly_states": 1}
    assert sum(int(row["sources_checked:long"] or 0) for row in claims) == 67
    assert sum(int(row["sources_total:long"] or 0) for row in claims) == 249
    sources = read(exported / "sources.csv")
    assert Counter(row["matched:boolean"] for row in sources) == {"false": 127, "true": 52}
    assert len(read(exported / "claim_cites.csv")) == 239
    checks = read(exported / "checked_against.csv")
    assert Counter(row["verdict:string"] for row in checks) == {"supported": 26, "not_supported": 34}
    assert len(read(exported / "supports.csv")) == 26


def test_ids_are_unique_and_every_relationship_joins_exported_nodes(exported):
    ids = {}
    for label, (key, _) in NODES.items():
        column = f"{key}:ID({label})"
        values = [row[column] for row in read(exported / f"{label.lower()}s.csv")]
        assert len(values) == len(set(values)), label
        ids[label] = set(values)
    for name, (kind, start, end, _) in RELATIONSHIPS.items():
        rows = read(exported / f"{name}.csv")
        pairs = [(row[f":START_ID({start})"], row[f":END_ID({end})"]) for row in rows]
        # One relationship per pair, as MERGE gives; a document mentions a paper once per evidence.
        keyed = [(*pair, row.get("key:string")) for pair, row in zip(pairs, rows)]
        assert len(keyed) == len(set(keyed)), name
        assert {row[":TYPE"] for row in rows} <= {kind}
        assert {a for a, _ in pairs} <= ids[start] and {b for _, b in pairs} <= ids[end], name
    papers = read(exported / "papers.csv")
    mentions = read(exported / "paper_mentions.csv")
    files = {row["doc_id:ID(Document)"]: Path(row["path:string"]).name for row in read(exported / "documents.csv")}
    for arxiv_id, documents in SEVEN_WORKS.items():
        (paper,) = [row for row in papers if row["arxiv_id:string"] == arxiv_id]
        named_by = {
            files[row[":START_ID(Document)"]][:3]
            for row in mentions
            if row[":END_ID(Paper)"] == paper["paper_id:ID(Paper)"]
        }
        assert named_by == documents, arxiv_id


def test_the_export_carries_the_format_stamp_and_a_lock_marking_the_import_unfinished(exported):
    documents = read(exported / "documents.csv")
    (run_id,) = {row["run_id:string"] for row in documents}
    (lock,) = read(exported / "ingestlock.csv")
    assert lock == {
        "name:ID(IngestLock)": "ingest",
        ":LABEL": "IngestLock",
        **{f"{key}:{kind}": None for key, kind in LOCK_COLUMNS.items()},  # held by nobody
        "unfinished_load:string": run_id,
        "load_kind:string": "import",
    }
    (stamp,) = read(exported / "graphformat.csv")
    assert {key: value for key, value in stamp.items() if key != "stamped_at:datetime"} == {
        "name:ID(GraphFormat)": "paperkg",
        ":LABEL": "GraphFormat",
        "version:long": str(GRAPH_FORMAT),
        "written_by:string": RELEASE,
    }
    assert f"--nodes={exported / 'ingestlock.csv'}" in (exported / "import.args").read_text()


@pytest.fixture(scope="module")
def import_server(tmp_path_factory) -> Iterator[Instance]:
    """The one server of this module's offline imports: each import stops it, replaces its
    graph and starts it again (imported_into)."""
    instance = Instance(tmp_path_factory.mktemp("imported"))
    yield instance
    instance.stop()


# Not the defaults: a restart must keep what the server was started with.
HEAP, PAGECACHE = "512m", "128m"


def imported_into(instance: Instance, directory: Path) -> None:
    instance.stop()
    import_into(instance, directory)
    instance.start(bolt_port=free_port(), http_port=free_port(), heap=HEAP, pagecache=PAGECACHE)


def test_the_imported_graph_is_the_ingested_graph(kb, seeds_dir, exported, import_server):
    ingest_paths(kb, [seeds_dir])
    ingested = dump(kb)
    imported_into(import_server, exported)
    with connect(home=str(import_server.home)) as imported:
        finish_import(imported)
        assert dump(imported) == ingested
        report = ingest_paths(imported, [seeds_dir])
        assert report.totals["unchanged"] == 4 and report.totals["new"] == 0


def test_an_import_is_a_run_whose_change_set_is_everything_added(import_server, tmp_path, short_racy_window):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name in ("card_2501.10001.txt", "card_2401.20002.txt", "page_2502.30003.txt"):
        shutil.copy(INVENTED / name, corpus)
    # The files the export reads are in the file-hash cache: older than a short racy window,
    # the sync below knows them unread.
    time.sleep(SETTLE)
    export_admin_import([corpus], tmp_path / "export")
    imported_into(import_server, tmp_path / "export")
    with connect(home=str(import_server.home)) as kb:
        finish_import(kb)
        finish_import(kb)  # the import is recorded once
        at_import = graph_state(kb)
        (run,) = runs(kb)
        assert (run["status"], run["exit_code"], run["change_sets"], run["loader"]) == ("ok", 0, 1, "admin-import")
        assert run["totals"] == {"seen": 3, "new": 3, "changed": 0, "unchanged": 0, "rejected": 0, "retracted": 0}
        everything = {entity: len(states) for entity, states in at_import.items()}
        assert everything == {"work": 5, "cites": 6, "claim": 3, "check": 2, "source": 2}
        assert run["changes"] == sum(everything.values())
        added = differences({name: {} for name in at_import}, at_import)
        assert states(changes(kb)) == states(changes(kb, run=run["run_id"])) == added
        works = {r["key"]: r["detail"] for r in changes(kb) if r["entity"] == "work"}
        assert works["arxiv:2303.40004"] == "Lichen Growth Rates: Field Notes"
        assert {r["runs"][0] for r in changes(kb)} == {run["run_id"]}

        # A card deleted after the import: the sync's change set as ever; before the import,
        # nothing; the import's own run, what it added (the citation the card stated included).
        (corpus / "card_2501.10001.txt").unlink()
        sync = sync_directory(kb, corpus)
        assert (sync.totals["unchanged"], sync.unchanged_not_read) == (2, 2)
        cut = {("cites", "arxiv:2501.10001 -> arxiv:2303.40004", "present", None)}
        assert states(changes(kb, run=sync.run_id)) == states(changes(kb, since=run["run_id"])) == cut
        assert states(changes(kb, run=run["run_id"])) == added
        now = graph_state(kb)
        assert states(changes(kb, since="2000-01-01")) == differences({name: {} for name in now}, now)
        assert [(r["run_id"], r["loader"]) for r in runs(kb)] == [
            (sync.run_id, "transactions"),
            (run["run_id"], "admin-import"),
        ]


def test_the_restart_of_an_offline_import_keeps_the_servers_sizes_and_shows_the_lock_alive(import_server, tmp_path):
    """The server comes back with the heap and page cache it had. The swapped-in graph holds the
    lock as the export wrote it, before the import: its holder shows it alive at once, or a run
    waiting on the lock could take over an import that took longer than the lock's stale_after."""
    if not import_server.is_running():
        import_server.start(bolt_port=free_port(), http_port=free_port(), heap=HEAP, pagecache=PAGECACHE)
    before = import_server.pid()
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    shutil.copy(INVENTED / "card_2501.10001.txt", corpus)
    export = tmp_path / "export"
    with connect(home=str(import_server.home)) as kb, IngestLock(kb) as lock:
        parts = AdminImportLoader(kb, lock, export).load(discover([corpus]).files, "a-run")
        assert next(parts) == []  # the export is written: nothing rejected
        (exported_lock,) = read(export / "ingestlock.csv")
        assert [result.status for result in next(parts)] == ["new"]
        (held,) = kb.cypher(
            "MATCH (l:IngestLock) RETURN l.owner AS owner, l.heartbeat AS heartbeat, l.unfinished_load AS unfinished"
        )
        written = datetime.fromisoformat(exported_lock["heartbeat:datetime"] or "")
        assert (held["owner"], held["unfinished"]) == (lock.owner, None)
        assert held["heartbeat"].to_native() > written
    after = import_server.pid()
    command_line = Path(f"/proc/{after}/cmdline").read_bytes().split(b"\0")
    assert after != before and f"-Xmx{HEAP}".encode() in command_line
    settings = (import_server.home / "conf" / "neo4j.conf").read_text().splitlines()
    assert f"server.memory.pagecache.size={PAGECACHE}" in settings


def test_ingest_loads_a_corpus_from_the_offline_threshold_by_an_offline_import_and_removes_its_export(
    import_server, tmp_path
):
    if not import_server.is_running():
        import_server.start(bolt_port=free_port(), http_port=free_port(), heap=HEAP, pagecache=PAGECACHE)
    corpus = tmp_path / "corpus"
    shutil.copytree(INVENTED, corpus)
    (corpus / "page_0000.bad.txt").write_text("# A title\n\nno sections follow\n", encoding="utf-8")
    files = len(list(corpus.iterdir()))  # the bad document counts: it is read, then rejected
    with connect(home=str(import_server.home)) as kb:
        kb.reset()
        by_transactions = ingest_paths(kb, [corpus], RunOptions(transactions=True))
        ingested = dump(kb)
        kb.reset()
        below = ingest_paths(kb, [corpus], RunOptions(bulk_min_documents=1, offline_min_documents=files + 1))
        assert below.loader == "bulk" and dump(kb) == ingested
        kb.reset()
        before = import_server.pid()

        report = ingest_paths(kb, [corpus], RunOptions(bulk_min_documents=1, offline_min_documents=files))

        assert report.loader == "admin-import" and import_server.pid() != before  # the server restarted
        assert _summary(report).startswith(f"{files} documents, imported offline: {files - 1} new, ")
        assert (report.totals["new"], report.totals["rejected"]) == (files - 1, 1)
        assert dump(kb) == ingested
        assert report.changes_recorded == by_transactions.changes_recorded > 0
        assert kb.cypher(
            "MATCH (r:IngestRun) RETURN r.run_id AS run_id, r.action AS action, r.loader AS loader, r.status AS status"
        ) == [{"run_id": report.run_id, "action": "import", "loader": "admin-import", "status": "rejected"}]
        assert lock_holder(kb) is None and not run_export_directory(import_server).exists()
        # Into the graph it made, transactions: every document is known, and none is read again.
        again = ingest_paths(kb, [corpus], RunOptions(bulk_min_documents=1, offline_min_documents=1))
        assert (again.loader, again.totals["unchanged"]) == ("transactions", files - 1)


def test_an_offline_import_of_ingest_that_fails_leaves_the_old_graph_and_removes_its_export(
    kb, neo4j_instance, tmp_path, monkeypatch
):
    corpus = tmp_path / "corpus"
    shutil.copytree(INVENTED, corpus)

    def failing_import(instance, directory, **settings):
        assert (directory / "papers.csv").exists()
        raise ExportError("neo4j-admin import failed (exit 1):\nno room left on the device")

    monkeypatch.setattr(admin_import, "import_into", failing_import)
    with pytest.raises(ExportError, match="no room left"):
        ingest_paths(kb, [corpus], RunOptions(bulk_min_documents=1, offline_min_documents=1))
    assert kb.cypher("MATCH (n) WHERE NOT n:GraphFormat RETURN labels(n) AS labels") == []
    assert not run_export_directory(neo4j_instance).exists()


def test_the_run_that_takes_the_lock_over_from_a_dead_one_removes_the_export_it_left(kb, neo4j_instance):
    left = run_export_directory(neo4j_instance)
    left.mkdir(parents=True)
    (left / "papers.csv").write_text("paper_id:ID(Paper)\n", encoding="utf-8")
    with IngestLock(kb):  # held by nobody: the export stays (a run may be writing it)
        pass
    assert left.exists()
    dead = start_command("--version")
    dead.communicate()
    kb.execute(STALE_LOCK, host=socket.gethostname(), pid=dead.pid, age=5)
    with IngestLock(kb):
        pass
    assert not left.exists() and lock_holder(kb) is None
