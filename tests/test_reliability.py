"""Faults during ingestion: SIGKILL at chosen points, the database going away, overlapping jobs.

Every scenario ends the same way: a rerun, then a full dump of the graph compared with the
dump of one clean run over the same documents. See tests/procs.py for how a run is stopped
at a known point (a schema lock held by the test, no hook in paperkg).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from contextlib import ExitStack
from pathlib import Path

import pytest
from conftest import free_port

from paperkg.db import connect
from paperkg.load.bulk import DIRECTORY_PREFIX
from paperkg.load.loader import heartbeats
from paperkg.run.ingest import ingest_paths
from paperkg.run.lock import IngestLock, LockHeld, LockLost
from paperkg.server import Instance, process_start

from graph_dump import dump
from procs import (
    blocked_statements,
    blocking_document,
    blocking_the_ingestion_lock,
    blocking_writes,
    count,
    environment,
    lock_holder,
    run,
    start,
    wait_until,
)
from synth import generate

PAPERS, PAGES, SEED = 240, 3, 2026
BATCH = 20


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    """A few hundred synthetic cards and claim-check pages (shared identities, merges, claims)."""
    out = tmp_path_factory.mktemp("reliability-corpus")
    generate(out, papers=PAPERS, pages=PAGES, seed=SEED)
    return out


@pytest.fixture(scope="module")
def documents(corpus) -> int:
    return sum(1 for _ in corpus.iterdir())


@pytest.fixture(scope="module")
def clean(session_kb, corpus) -> dict:
    """The dump of one uninterrupted run over the corpus."""
    session_kb.reset()
    report = ingest_paths(session_kb, [corpus])
    assert report.ok, [d.error for d in report.documents if d.error]
    return dump(session_kb)


def holds_lock(kb, proc):
    holder = lock_holder(kb)
    return holder is not None and holder["pid"] == proc.pid


def kill(proc) -> None:
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=30)
    assert proc.returncode == -signal.SIGKILL


def blocked_in_first_batch(kb, stack: ExitStack, *args: str):
    """Start `paperkg ingest ARGS` and hold it inside the transaction of its first batch.

    The run is held first as it takes the ingestion lock, while the test takes the Paper label;
    then it is let go and waits again at its first Paper write, before any commit."""
    with blocking_the_ingestion_lock(kb):
        proc = start("ingest", *args)
        wait_until(lambda: blocked_statements(kb), what="the run to reach the ingestion lock", proc=proc)
        stack.enter_context(blocking_writes(kb, "Paper"))
    wait_until(lambda: holds_lock(kb, proc), what="the run to take the lock", proc=proc)
    wait_until(lambda: blocked_statements(kb), what="the first batch to wait", proc=proc)
    return proc


def rerun_and_compare(kb, corpus, clean, killed_pid: int, expect_committed: int, documents: int):
    """Rerun without --wait: the dead run's lock is taken over and the graph equals the clean run."""
    holder = lock_holder(kb)
    assert holder is not None and holder["pid"] == killed_pid and holder["host"] == socket.gethostname()
    assert count(kb, "Document") == expect_committed  # the transaction in flight left nothing
    result = run("ingest", str(corpus), "--json")
    assert result.returncode == 0, result.stderr
    totals = json.loads(result.stdout)["totals"]
    assert (totals["new"], totals["unchanged"], totals["rejected"]) == (
        documents - expect_committed,
        expect_committed,
        0,
    )
    assert lock_holder(kb) is None
    assert dump(kb) == clean


def test_sigkill_early_in_the_first_batch_then_rerun_equals_a_clean_run(kb, corpus, clean, documents):
    with ExitStack() as stack:
        proc = blocked_in_first_batch(kb, stack, str(corpus), "--quiet")
        assert count(kb, "Document") == 0
        kill(proc)
    assert count(kb, "IngestRun") == 0
    rerun_and_compare(kb, corpus, clean, proc.pid, 0, documents)


def test_sigkill_in_the_middle_of_a_batch_then_rerun_equals_a_clean_run(kb, corpus, clean, documents):
    proc = start("ingest", str(corpus), "--quiet", "--batch", str(BATCH))
    wait_until(lambda: count(kb, "Document") >= documents // 2, what="half the corpus", proc=proc)
    with blocking_writes(kb, "Paper"):
        (statement,) = wait_until(lambda: blocked_statements(kb), what="the next batch to wait", proc=proc)
        assert "Paper" in statement
        committed = count(kb, "Document")
        assert documents // 2 <= committed < documents and committed % BATCH == 0
        kill(proc)
    time.sleep(0.5)  # the server rolls back the dead client's transaction
    rerun_and_compare(kb, corpus, clean, proc.pid, committed, documents)


def test_sigkill_while_recording_the_run_then_rerun_equals_a_clean_run(kb, corpus, clean, documents):
    proc = start("ingest", str(corpus), "--quiet")
    wait_until(lambda: holds_lock(kb, proc), what="the run to take the lock", proc=proc)
    with blocking_writes(kb, "IngestRun"):
        (statement,) = wait_until(lambda: blocked_statements(kb), what="the run record", timeout=240, proc=proc)
        assert "IngestRun" in statement
        assert count(kb, "Document") == documents
        kill(proc)
    assert count(kb, "IngestRun") == 0
    rerun_and_compare(kb, corpus, clean, proc.pid, documents, documents)


def edit_card(card: Path) -> None:
    """A new title, and the last item of the card's last list dropped (its heading counts follow)."""
    lines = card.read_text().split("\n")
    item = max(i for i, line in enumerate(lines) if line.startswith("- ["))
    heading = max(i for i, line in enumerate(lines[:item]) if line.startswith("## "))
    shown, total = re.search(r"([0-9]+) of ([0-9]+)\)", lines[heading]).groups()
    lines[heading] = lines[heading].replace(f"{shown} of {total})", f"{int(shown) - 1} of {int(total) - 1})")
    lines[0] = "# A retitled card"
    del lines[item]
    card.write_text("\n".join(lines))


def test_a_bulk_load_whose_lock_is_taken_over_has_its_statement_terminated_and_what_it_wrote_removed(
    kb, neo4j_instance, corpus, clean, documents
):
    # A load frozen mid-statement (as one on another host that stopped answering): its connection
    # stays open, so its statement would go on writing once unblocked, unless it is terminated.
    proc = start("ingest", str(corpus), "--bulk", "--quiet")
    try:
        wait_until(lambda: holds_lock(kb, proc), what="the load to take the lock", proc=proc)
        with blocking_writes(kb, "Claim"):  # the papers, their evidence and the documents land first
            blocked = wait_until(lambda: blocked_statements(kb), what="the load's claims", proc=proc)
            assert all("CREATE (n:Claim" in statement for statement in blocked)  # two transactions at once
            proc.send_signal(signal.SIGSTOP)
            assert count(kb, "Paper") > 0 and count(kb, "Document") == documents
            with IngestLock(kb, stale_after=0):  # its heartbeat taken as stale, as after ten minutes
                assert blocked_statements(kb) == []
                assert kb.cypher("MATCH (n) WHERE NOT n:IngestLock RETURN count(n) AS nodes") == [{"nodes": 0}]
        time.sleep(1)
        assert kb.cypher("MATCH (n) RETURN count(n) AS nodes") == [{"nodes": 0}]  # nothing landed after
        assert not list((neo4j_instance.home / "import").glob(f"{DIRECTORY_PREFIX}*"))  # nor its export
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=30)

    result = run("ingest", str(corpus), "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["totals"]["new"] == documents
    assert dump(kb) == clean


def test_a_run_that_takes_a_dead_bulk_loads_lock_over_says_it_removes_what_it_wrote(kb, corpus, clean, documents):
    proc = start("ingest", str(corpus), "--bulk", "--quiet")
    wait_until(lambda: holds_lock(kb, proc), what="the load to take the lock", proc=proc)
    with blocking_writes(kb, "Claim"):
        wait_until(lambda: blocked_statements(kb), what="the load's claims", proc=proc)
        kill(proc)
    time.sleep(0.5)  # the server ends the statement it was running for the dead client
    assert count(kb, "Document") == documents and dump(kb) != clean

    result = run("ingest", str(corpus), "--json")  # without --bulk
    assert result.returncode == 0, result.stderr
    assert re.search(
        r"a bulk load \(run [0-9a-f-]{36}\) stopped before it finished: removing what it wrote", result.stderr
    )
    assert json.loads(result.stdout)["totals"]["new"] == documents
    assert lock_holder(kb) is None
    assert dump(kb) == clean


def test_sigkill_while_rewriting_a_changed_document_keeps_its_old_version(kb, corpus, tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    for file in sorted(corpus.iterdir())[: 2 * BATCH]:
        shutil.copy(file, docs / file.name)
    assert ingest_paths(kb, [docs]).ok
    before = dump(kb)
    first_card = min(docs.glob("card_*"))  # in the first batch
    edit_card(first_card)
    with ExitStack() as stack:
        proc = blocked_in_first_batch(kb, stack, str(docs), "--quiet")
        kill(proc)
    time.sleep(0.5)
    assert dump(kb) == before  # not half retracted: the old version stands whole
    result = run("ingest", str(docs), "--json")
    assert result.returncode == 0, result.stderr
    totals = json.loads(result.stdout)["totals"]
    assert (totals["changed"], totals["unchanged"]) == (1, 2 * BATCH - 1)
    after_rerun = dump(kb)
    assert after_rerun != before
    kb.reset()
    assert ingest_paths(kb, [docs]).ok
    assert after_rerun == dump(kb)


# -- the database goes away ----------------------------------------------------------------


@pytest.fixture(scope="module")
def stoppable_instance(tmp_path_factory):
    """A second managed Neo4j, on its own home and ports, shared by the tests that stop it."""
    instance = Instance(tmp_path_factory.mktemp("stoppable") / "home")
    instance.start(bolt_port=free_port(), http_port=free_port(), heap="512m", pagecache="128m")
    try:
        yield instance
    finally:
        instance.stop()


@pytest.fixture
def own_instance(stoppable_instance):
    """The Neo4j this test may stop or pause, running and empty when the test starts."""
    if not stoppable_instance.is_running():  # a test before this one failed with it stopped
        stoppable_instance.start(heap="512m", pagecache="128m")
    with connect(home=str(stoppable_instance.home)) as kb:
        kb.reset()
    return stoppable_instance


def test_database_stopped_mid_ingest_exits_2_in_one_line_then_rerun_equals_a_clean_run(
    own_instance, corpus, clean, documents
):
    env = environment(PAPERKG_HOME=str(own_instance.home))
    password = own_instance.password()
    with connect(home=str(own_instance.home)) as other:
        proc = start("ingest", str(corpus), "--quiet", env=env)
        wait_until(lambda: count(other, "Document") >= 2 * BATCH, what="two batches", proc=proc)
    started = time.monotonic()
    own_instance.stop()
    out, err = proc.communicate(timeout=180)
    print(f"paperkg exited {time.monotonic() - started:.1f} s after the server stopped")
    assert proc.returncode == 2, err
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("paperkg: error:"), err
    assert "Neo4j" in lines[0] and own_instance.bolt_uri.removeprefix("bolt://") in lines[0]
    assert "Traceback" not in err and password not in err
    own_instance.start()
    result = run("ingest", str(corpus), "--json", env=env)
    assert result.returncode == 0, result.stderr
    totals = json.loads(result.stdout)["totals"]
    assert totals["new"] + totals["unchanged"] == documents and 0 < totals["unchanged"] < documents
    with connect(home=str(own_instance.home)) as other:
        assert lock_holder(other) is None  # the failed run's lock was left behind, then taken over
        assert dump(other) == clean


def test_a_client_of_a_stopped_server_gives_up_within_seconds(own_instance):
    # SIGSTOP: the kernel still accepts connections for the server, which never answers. The
    # connection timeout bounds a new client; the server's keep-alive hint one that waits.
    env = environment(PAPERKG_HOME=str(own_instance.home))
    pid = own_instance.pid()
    os.kill(pid, signal.SIGSTOP)
    try:
        started = time.monotonic()
        result = run("stats", env=env, timeout=170)
        elapsed = time.monotonic() - started
    finally:
        os.kill(pid, signal.SIGCONT)
    print(f"paperkg stats gave up {elapsed:.1f} s after the server stopped")
    assert result.returncode == 2 and result.stdout == ""
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(f"paperkg: error: cannot reach Neo4j at {own_instance.bolt_uri}")
    assert elapsed < 60


def test_a_run_writing_when_the_server_stops_gives_up_within_seconds(own_instance, corpus):
    env = environment(PAPERKG_HOME=str(own_instance.home))
    with connect(home=str(own_instance.home)) as other:
        proc = start("ingest", str(corpus), "--quiet", "--batch", "5", env=env)
        wait_until(lambda: count(other, "Document") >= 10, what="two batches", proc=proc)
    pid = own_instance.pid()
    os.kill(pid, signal.SIGSTOP)
    try:
        started = time.monotonic()
        out, err = proc.communicate(timeout=170)
        elapsed = time.monotonic() - started
    finally:
        os.kill(pid, signal.SIGCONT)
    print(f"paperkg ingest gave up {elapsed:.1f} s after the server stopped")
    assert proc.returncode == 2 and out == ""
    (line,) = err.strip().splitlines()
    assert line.startswith("paperkg: error: lost the connection to Neo4j") and "Traceback" not in err
    assert elapsed < 60


# -- overlapping jobs -----------------------------------------------------------------------

DUPLICATE_NODES = """
MATCH (p:Paper) WHERE p.arxiv_id IS NOT NULL WITH p.arxiv_id AS key, count(*) AS n WHERE n > 1 RETURN key
UNION ALL
MATCH (d:Document) WITH d.doc_id AS key, count(*) AS n WHERE n > 1 RETURN key
UNION ALL
MATCH (c:Claim) WITH c.claim_id AS key, count(*) AS n WHERE n > 1 RETURN key
UNION ALL
MATCH (s:Source) WITH s.source_id AS key, count(*) AS n WHERE n > 1 RETURN key
"""
DUPLICATE_RELATIONSHIPS = """
MATCH (a)-[r]->(b) WITH a, b, type(r) AS type, r.key AS key, count(r) AS n WHERE n > 1
RETURN elementId(a) AS a, type, elementId(b) AS b
"""


def test_two_runs_started_together_with_wait_leave_the_graph_of_one_run(kb, corpus, clean, documents):
    first = start("ingest", str(corpus), "--json", "--wait", "120")
    second = start("ingest", str(corpus), "--json", "--wait", "120")
    reports = []
    for proc in (first, second):
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
        reports.append(json.loads(out)["totals"])
    # One run wrote everything; the other waited for the lock, then found nothing to do.
    assert sorted((r["new"], r["unchanged"]) for r in reports) == [(0, documents), (documents, 0)]
    assert kb.cypher(DUPLICATE_NODES) == []
    assert kb.cypher(DUPLICATE_RELATIONSHIPS) == []
    assert count(kb, "IngestRun") == 2 and lock_holder(kb) is None
    assert dump(kb) == clean


def holding_a_run_with_the_lock(kb, docs: Path, *args: str):
    """Start `paperkg ingest DOCS ARGS` and hold it, lock taken, as it writes its first document."""
    stack = ExitStack()
    stack.enter_context(blocking_document(kb, min(docs.iterdir())))
    proc = start("ingest", str(docs), *args)
    wait_until(lambda: holds_lock(kb, proc) and blocked_statements(kb), what="the run to hold the lock", proc=proc)
    return proc, stack


def test_second_run_without_wait_exits_75_naming_the_holder(kb, seeds_dir):
    first, held = holding_a_run_with_the_lock(kb, seeds_dir, "--quiet")
    with held:
        second = run("ingest", str(seeds_dir))
        assert second.returncode == 75
        assert second.stdout == ""
        assert len(second.stderr.strip().splitlines()) == 1
        assert second.stderr.startswith("paperkg: error: another ingestion holds the lock")
        assert f"pid {first.pid}" in second.stderr and "--wait" in second.stderr
        assert count(kb, "IngestRun") == 0
    _out, err = first.communicate(timeout=120)
    assert first.returncode == 0, err  # the holder was not disturbed
    assert count(kb, "Document") == 4 and count(kb, "IngestRun") == 1


def test_a_waiting_run_starts_when_the_holder_finishes(kb, seeds_dir):
    first, held = holding_a_run_with_the_lock(kb, seeds_dir, "--json")
    with held:
        second = start("ingest", str(seeds_dir), "--json", "--wait", "120")
        time.sleep(3)
        assert second.poll() is None  # still waiting
    out1, err1 = first.communicate(timeout=120)
    out2, err2 = second.communicate(timeout=120)
    assert (first.returncode, second.returncode) == (0, 0), err1 + err2
    assert json.loads(out1)["totals"]["new"] == 4
    assert json.loads(out2)["totals"]["unchanged"] == 4


STALE_LOCK = """
CREATE (:IngestLock {name: 'ingest', owner: 'a-run-elsewhere', host: $host, pid: $pid,
                     acquired_at: datetime() - duration({seconds: $age}),
                     heartbeat: datetime() - duration({seconds: $age})})
"""


def test_lock_of_a_dead_process_on_this_host_is_taken_over(kb, seeds_dir):
    dead = start("--version")
    dead.communicate()
    kb.execute(STALE_LOCK, host=socket.gethostname(), pid=dead.pid, age=5)
    result = run("ingest", str(seeds_dir), "--quiet")
    assert result.returncode == 0, result.stderr
    assert lock_holder(kb) is None and count(kb, "Document") == 4


STALE_LOCK_STARTED = """
CREATE (:IngestLock {name: 'ingest', owner: 'a-run-elsewhere', host: $host, pid: $pid, process_start: $started,
                     acquired_at: datetime(), heartbeat: datetime()})
"""


def test_lock_whose_pid_was_reused_by_another_process_is_taken_over(kb, seeds_dir):
    # The holder died and its pid now belongs to a live process that started later (here: this
    # test's own process, with a start time that is not the holder's).
    kb.execute(STALE_LOCK_STARTED, host=socket.gethostname(), pid=os.getpid(), started="another-boot:1")
    result = run("ingest", str(seeds_dir), "--quiet")
    assert result.returncode == 0, result.stderr
    assert lock_holder(kb) is None and count(kb, "Document") == 4


def test_lock_of_a_live_process_that_started_when_it_took_it_is_respected(kb, seeds_dir):
    kb.execute(STALE_LOCK_STARTED, host=socket.gethostname(), pid=os.getpid(), started=process_start(os.getpid()))
    result = run("ingest", str(seeds_dir), "--quiet")
    assert result.returncode == 75
    assert f"pid {os.getpid()}" in result.stderr
    assert count(kb, "Document") == 0


def test_lock_of_another_host_is_respected_while_its_heartbeat_is_fresh(kb, seeds_dir):
    kb.execute(STALE_LOCK, host="another-host.example", pid=1, age=30)
    result = run("ingest", str(seeds_dir), "--quiet")
    assert result.returncode == 75
    assert "another-host.example" in result.stderr
    assert count(kb, "Document") == 0


def test_lock_of_another_host_with_a_heartbeat_older_than_ten_minutes_is_taken_over(kb, seeds_dir):
    kb.execute(STALE_LOCK, host="another-host.example", pid=1, age=601)
    result = run("ingest", str(seeds_dir), "--quiet")
    assert result.returncode == 0, result.stderr
    assert lock_holder(kb) is None and count(kb, "Document") == 4


def test_a_run_whose_lock_was_taken_over_stops_at_its_next_heartbeat_due(kb):
    # Heartbeats go to the server at most every tenth of stale_after: the lock can only be
    # taken over once the last one is that old, so the next due one finds it lost.
    lock = IngestLock(kb, stale_after=2)
    with pytest.raises(LockLost), lock:
        kb.execute("MATCH (l:IngestLock {name: 'ingest'}) SET l.owner = 'a-run-that-took-it-over'")
        lock.heartbeat()  # shown alive just now, when the lock was taken: no round trip yet
        assert lock_holder(kb)["owner"] == "a-run-that-took-it-over"
        time.sleep(0.25)
        lock.heartbeat()
    assert lock_holder(kb)["owner"] == "a-run-that-took-it-over"  # not released: it is not ours


@pytest.mark.parametrize("beating", [True, False], ids=["shown-alive", "silent"])
def test_a_step_longer_than_stale_after_keeps_the_lock_while_it_shows_it_alive(kb, beating):
    # An export or an offline import does not return for minutes: it runs under heartbeats,
    # or a run waiting on the lock takes it over once the last heartbeat is stale_after old.
    with IngestLock(kb, stale_after=1) as lock, heartbeats(lock) if beating else ExitStack():
        time.sleep(1.5)
        waiting = IngestLock(kb, stale_after=1)
        if beating:
            with pytest.raises(LockHeld):
                waiting.acquire()
        else:
            waiting.acquire()
        assert lock_holder(kb)["owner"] == (lock.owner if beating else waiting.owner)


# -- bad documents among good ones -------------------------------------------------------


def test_bad_documents_among_good_ones_are_rejected_with_file_and_line(kb, corpus, tmp_path):
    import random

    from mutate import mutate  # the fuzzer's mutator (its own tests live in test_fuzz.py)

    docs = tmp_path / "mixed"
    docs.mkdir()
    good = sorted(corpus.iterdir())[:30]
    for file in good:
        shutil.copy(file, docs / file.name)
    bad = {
        "bad_nul.txt": b"# A title\n\nwith a \x00 byte",
        "bad_first_line.txt": b"not a card\n",
        "bad_latin1.txt": "# Caf\u00e9 \u2014 title\n".encode("latin-1", errors="replace"),
        "bad_count.txt": (
            good[0].read_bytes().decode().replace("Cited by ", "Cited by 99999999999999999999", 1).encode()
        ),
    }
    rng = random.Random(7)
    for number in range(10):  # mutated copies that the parser rejects
        data, _ = mutate(good[number].read_bytes(), rng)
        bad[f"bad_mutated_{number}.txt"] = data
    for name, data in bad.items():
        (docs / name).write_bytes(data)
    result = run("ingest", str(docs), "--json")
    report = json.loads(result.stdout)
    by_name = {Path(d["path"]).name: d for d in report["documents"]}
    rejected = {name for name, d in by_name.items() if d["status"] == "rejected"}
    assert result.returncode == (1 if rejected else 0)
    assert {f.name for f in good} & rejected == set()
    assert {"bad_nul.txt", "bad_first_line.txt", "bad_count.txt"} <= rejected
    for name in rejected:
        d = by_name[name]
        assert d["error"].startswith(f"{docs / name}:") and len(d["error"].splitlines()) == 1
        assert d["line"] is not None and d["error"].startswith(f"{docs / name}:{d['line']}: ")
    # Every good document is in the graph, and no rejected one is.
    (row,) = kb.cypher("MATCH (d:Document) RETURN collect(d.path) AS paths")
    accepted = {name for name, d in by_name.items() if d["status"] == "new"}
    assert {Path(p).name for p in row["paths"]} == accepted
    assert {f.name for f in good} <= accepted
    print(f"{len(bad)} bad documents, {len(rejected)} rejected, {len(accepted)} accepted")


# -- limits -----------------------------------------------------------------------------------

PEAK_RSS = """
import resource, sys
from paperkg.cli import main
code = main(sys.argv[1:])
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024, code)
"""


def cards_with_big_abstracts(directory: Path, count: int, first: int, abstract_bytes: int) -> int:
    """`count` invented cards with ~abstract_bytes of abstract each; returns the bytes written."""
    directory.mkdir(exist_ok=True)
    total = 0
    for number in range(first, first + count):
        words = " ".join(f"w{number}x{i}" for i in range(abstract_bytes // 10))
        text = (
            f"# Invented paper number {number}\n\n"
            f"arXiv: https://arxiv.org/abs/2201.{number:05d} · HTML: https://mlsanity.com/paper/2201.{number:05d}/\n\n"
            f"## Abstract (arXiv)\n\n{words}"
        )
        (directory / f"card{number:05d}.txt").write_text(text)
        total += len(text.encode())
    return total


def peak_rss(*args: str) -> int:
    result = subprocess.run([sys.executable, "-c", PEAK_RSS, *args], capture_output=True, text=True, timeout=300)
    peak, code = result.stdout.split()
    assert code == "0", result.stderr
    return int(peak)


def test_peak_memory_of_ingest_follows_the_batch_not_the_corpus(kb, tmp_path):
    small, large = 20, 80  # documents of 300 KB, 5 per transaction
    small_bytes = cards_with_big_abstracts(tmp_path / "small", small, 0, 300_000)
    large_bytes = cards_with_big_abstracts(tmp_path / "large", large, 1000, 300_000)
    small_peak = peak_rss("ingest", str(tmp_path / "small"), "--quiet", "--batch", "5")
    kb.reset()
    large_peak = peak_rss("ingest", str(tmp_path / "large"), "--quiet", "--batch", "5")
    assert count(kb, "Document") == large
    extra = large_bytes - small_bytes  # 18 MB more documents...
    print(
        f"peak RSS {small_peak / 1e6:.0f} MB for {small_bytes / 1e6:.0f} MB of documents, "
        f"{large_peak / 1e6:.0f} MB for {large_bytes / 1e6:.0f} MB"
    )
    assert large_peak - small_peak < extra / 3  # ...and at most a third of that in memory


def test_document_over_max_bytes_is_rejected_by_its_size_alone(kb, tmp_path):
    docs = tmp_path / "docs"
    cards_with_big_abstracts(docs, 1, 0, 500)
    cards_with_big_abstracts(docs, 1, 1, 5000)
    huge = docs / "huge.txt"
    with huge.open("wb") as handle:  # 64 GB, sparse: reading it would exhaust memory
        handle.truncate(64 * 1024**3)
    result = run("ingest", str(docs), "--json")
    assert result.returncode == 1
    report = {Path(d["path"]).name: d for d in json.loads(result.stdout)["documents"]}
    assert report["huge.txt"]["status"] == "rejected"
    assert report["huge.txt"]["error"] == (
        f"{huge}: document is {64 * 1024**3:,} bytes, over the limit of {50 * 1024**2:,}"
    )
    assert [report[f"card{n:05d}.txt"]["status"] for n in (0, 1)] == ["new", "new"]
    huge.unlink()
    small, large = (docs / f"card{n:05d}.txt" for n in (0, 1))
    assert small.stat().st_size < 1500 < large.stat().st_size
    result = run("ingest", str(docs), "--max-bytes", "1500", "--json")
    assert result.returncode == 1
    report = {Path(d["path"]).name: d for d in json.loads(result.stdout)["documents"]}
    assert report[small.name]["status"] == "unchanged"
    assert report[large.name] == {
        "path": str(large),
        "status": "rejected",
        "doc_id": None,
        "line": None,
        "counts": {},
        "warnings": 0,
        "error": f"{large}: document is {large.stat().st_size:,} bytes, over the limit of 1,500",
    }
