"""The benchmark's reference Cypher (bench/*.cypher) stays in step with the export it loads."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from paperkg.load.admin_import import NODES, RELATIONSHIPS, export_admin_import
from paperkg.run.ingest import ingest_paths

from graph_dump import dump

ROOT = Path(__file__).resolve().parents[1]


def bench_module():
    spec = importlib.util.spec_from_file_location("bench_run", ROOT / "bench" / "run.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_load_csv_script_reads_every_column_of_every_exported_file(tmp_path):
    bench = bench_module()
    export_admin_import([ROOT / "examples" / "corpus"], tmp_path)
    script = bench.load_csv_script(tmp_path)  # raises SystemExit naming a file or column it misses
    assert len(script) == len(NODES) + len(RELATIONSHIPS)
    assert all(statement.startswith("LOAD CSV WITH HEADERS FROM $folder") for statement in script)


def test_the_load_csv_script_writes_the_graph_ingestion_writes(kb, neo4j_instance, seeds_dir):
    # The benchmark compares the two paths on the same graph, derived properties included.
    ingest_paths(kb, [seeds_dir])
    ingested = dump(kb)
    kb.reset()
    export = neo4j_instance.home / "import" / "seeds"
    export_admin_import([seeds_dir], export)
    bench_module().run_load_csv(kb, export)
    assert dump(kb) == ingested


def test_a_commands_peak_rss_counts_the_processes_it_starts(tmp_path):
    # Two processes each holding 128 MB of its own for a second: the peak counts both blocks.
    script = (
        "import os, time\n"
        "child = os.fork()\n"
        "block = bytes([child % 251]) * (128 << 20)\n"
        "time.sleep(1)\n"
        "os._exit(0) if child == 0 else os.waitpid(child, 0)\n"
    )
    run = bench_module().measured([sys.executable, "-c", script], tmp_path)
    assert run.rejected == 0 and run.seconds >= 1
    assert run.largest_rss_mb >= 128 and run.peak_rss_mb >= run.largest_rss_mb + 110
    assert run.peak_pss_mb >= 2 * 128 - 10  # each block is its own: PSS counts both


def test_a_commands_peak_pss_counts_a_block_its_processes_share_once(tmp_path):
    # 128 MB held before a fork and never written after: both processes map its pages.
    script = (
        "import os, time\n"
        "block = bytes([7]) * (128 << 20)\n"
        "child = os.fork()\n"
        "time.sleep(1)\n"
        "os._exit(0) if child == 0 else os.waitpid(child, 0)\n"
    )
    run = bench_module().measured([sys.executable, "-c", script], tmp_path)
    assert run.peak_rss_mb >= 2 * 128
    assert 128 <= run.peak_pss_mb <= 128 + 60


def test_a_commands_peak_rss_is_its_own_not_the_benchmarks(tmp_path):
    # A child's rusage (ru_maxrss) starts from the RSS of the process it was forked from.
    held = bytes([1]) * (256 << 20)
    run = bench_module().measured([sys.executable, "-c", "pass"], tmp_path)
    assert len(held) and run.largest_rss_mb < 100 and run.peak_rss_mb < 100


def test_naive_statements_cover_every_file_and_label():
    names = bench_module().named_statements("naive")
    assert set(names) == (
        {label.lower() + "s" for label in NODES}
        | set(RELATIONSHIPS)
        | {label.lower() + "_endpoints" for label in NODES}
    )


def test_naive_rows_carry_each_property_in_the_contracts_type():
    record = {
        ":START_ID(Document)": "doc",
        ":END_ID(Paper)": "arxiv:0704.0001",
        "lines:long[]": "3\x1f7",
        "subject:boolean": "true",
        "year:long": "2001",
        "title:string": "A title",
    }
    assert bench_module().naive_parameters("paper_mentions", record) == {
        "start": "doc",
        "end": "arxiv:0704.0001",
        "properties": {"title": "A title", "year": 2001, "lines": [3, 7], "subject": True},
    }


def test_a_process_cpu_is_split_by_thread_name_and_the_machines_busy_cores_counted():
    bench = bench_module()
    assert [bench.thread_group(name) for name in ("GC Thread#1", "C2 CompilerThre", "MuninnPageCache[1]")] == [
        "GC Thread",
        "C2 CompilerThre",
        "MuninnPageCache",
    ]
    with bench.ThreadCpu(os.getpid()) as measured:
        started = time.process_time()
        while time.process_time() - started < 0.5:
            pass
    cpu = measured.seconds()
    assert 0.4 <= cpu["seconds"] <= 1.5
    assert max(cpu["threads"].values()) >= 0.4  # this thread, under its name
    assert cpu["threads"]["ended"] == pytest.approx(0, abs=0.1)  # no thread ended meanwhile
    # This thread kept a core busy throughout (and whatever ran beside it, the others).
    assert 0.8 <= cpu["machine_busy_cores"] <= os.cpu_count()


# Two threads hashing without the GIL (hashlib releases it for large buffers), both on one core;
# they stay alive, hashed out, until told to end, so that the last read sees them.
SHARING_ONE_CORE = """
import hashlib, os, sys, threading, time
os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
data = bytes(8 << 20)
hashed, end = threading.Barrier(3), threading.Event()
def hash_for(seconds):
    stop = time.thread_time() + seconds
    while time.thread_time() < stop:
        hashlib.sha256(data).digest()
    hashed.wait()
    end.wait()
threads = [threading.Thread(target=hash_for, args=(0.6,)) for _ in range(2)]
print("ready", flush=True)
sys.stdin.readline()
for thread in threads:
    thread.start()
hashed.wait()
print("hashed", flush=True)
sys.stdin.readline()
end.set()
"""


def test_a_process_threads_wait_for_a_core_is_measured_when_two_share_one():
    bench = bench_module()
    child = subprocess.Popen(
        [sys.executable, "-c", SHARING_ONE_CORE], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout.readline() == "ready\n"
        with bench.ThreadCpu(child.pid) as measured:
            child.stdin.write("go\n")
            child.stdin.flush()
            assert child.stdout.readline() == "hashed\n"
        child.stdin.write("end\n")
        child.stdin.flush()
        child.wait(timeout=60)
    finally:
        child.kill()
    cpu = measured.seconds()
    # Each thread ran 0.6 s on the one core, mostly while the other was ready to: each waited
    # about as long as the other ran.
    hashing = next(iter(cpu["threads"]))  # the busiest group: the interpreter's threads, by its name
    assert cpu["threads"][hashing] >= 1.2
    assert cpu["waited"][hashing] >= 0.6


def test_the_recorded_command_names_the_options_not_the_scratch_places():
    bench = bench_module()
    argv = ["/repo/bench/run.py", "--offline-only", "--sizes", "500000", "--work", "/tmp/b500", "--out=/tmp/b.json"]
    assert bench.reproducing_command(argv) == "python bench/run.py --offline-only --sizes 500000"
    assert bench.reproducing_command(["bench/run.py"]) == "python bench/run.py"
