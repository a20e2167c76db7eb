"""What a new user meets in the first hour: no silent waits, no tracebacks, answers that say what
they mean (issue 16): progress while the managed server starts, cheap checks before it starts, a
closed pipe, `parse` in words, the ingest summary against `stats`, and `--help` without the driver."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest
from conftest import free_port

from paperkg.cli import main
from paperkg.server import NEO4J_VERSION, Instance

from ecosystem import EXAMPLES, examples, forget

PAPERKG = [sys.executable, "-m", "paperkg.cli"]


def env(**changes: str) -> dict[str, str]:
    out = {k: v for k, v in os.environ.items() if not k.startswith("NEO4J_")}
    return {**out, **changes}


def test_help_answers_without_importing_the_driver():
    probe = "import sys, paperkg.cli; print(sorted(m for m in ('neo4j', 'pydantic', 'tqdm') if m in sys.modules))"
    assert subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True).stdout.strip() == "[]"
    assert subprocess.run([*PAPERKG, "--help"], capture_output=True).returncode == 0
    # How long it takes is measured by bench/startup.py, not asserted here.


def test_a_command_imports_the_driver_without_its_dataframe_libraries_which_still_import_later():
    probe = (
        "import sys; from paperkg.cli import main; main(['query', '--list']); "
        "hidden = [m for m in ('numpy', 'pandas') if m in sys.modules]; "
        "import pandas; print(hidden, pandas.DataFrame([{'a': 1}]).shape)"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert result.stdout.splitlines()[-1] == "[] (1, 1)", result.stderr


def test_ingest_of_a_missing_path_says_so_before_starting_the_managed_server(tmp_path):
    home = tmp_path / "home"
    result = subprocess.run(
        [*PAPERKG, "ingest", str(tmp_path / "nowhere")], env=env(PAPERKG_HOME=str(home)), capture_output=True, text=True
    )
    assert result.returncode == 2
    assert result.stderr == f"paperkg: error: {tmp_path / 'nowhere'}: no such file or directory\n"
    assert not home.exists()  # no server was started for it
    result = subprocess.run(
        [*PAPERKG, "sync", str(EXAMPLES / "card_1811.05532.txt")],
        env=env(PAPERKG_HOME=str(home)),
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2 and "not a directory" in result.stderr and not home.exists()


def start_by_a_command(home, cache):
    """`paperkg stats --json` in a new home, with the user's cache directory `cache`; its stderr's lines."""
    home.mkdir()
    bolt = free_port()
    # A new home remembers its ports: these, not the default ones a user's server may hold.
    (home / "instance.json").write_text(json.dumps({"bolt_port": bolt, "http_port": free_port()}))
    try:
        result = subprocess.run(
            [*PAPERKG, "stats", "--json"],
            env=env(PAPERKG_HOME=str(home), XDG_CACHE_HOME=str(cache)),
            capture_output=True,
            text=True,
            timeout=300,
        )
    finally:
        Instance(home).stop()
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["nodes"]["Paper"] == 0
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert lines[0] == (
        f"paperkg: the managed Neo4j in {home} is not running (NEO4J_URI is unset): starting it; "
        "`paperkg db stop` stops it"
    )
    said = [
        line
        for line in lines
        if f"starting Neo4j {NEO4J_VERSION} in {home}, waiting for Bolt on 127.0.0.1:{bolt}" in line
    ]
    assert said[0].endswith(" …") and re.search(r" … done in \d+ s$", said[-1]), lines
    return lines


RESOLVING = f"resolving Neo4j {NEO4J_VERSION}'s jars with Maven"
COMPILING = "building paperkg's Neo4j Browser extension with javac"


def test_a_command_starting_the_managed_server_says_so_and_shows_each_wait(tmp_path):
    lines = start_by_a_command(tmp_path / "home", tmp_path / "cache")
    for step in (RESOLVING, COMPILING):
        said = [line for line in lines if step in line]
        assert said[0].endswith(" …") and re.search(r" … done in \d+ s$", said[-1]), (step, lines)
        # Between the two, the elapsed time every ten seconds of a long wait.
        assert all(re.search(r" … \d+ s$", line) for line in said[1:-1]), said
    # What the first home resolved and built is the user's: another home starts without either.
    lines = start_by_a_command(tmp_path / "another", tmp_path / "cache")
    assert not [line for line in lines if RESOLVING in line or COMPILING in line], lines
    assert (tmp_path / "another" / "plugins" / "paperkg-browser.jar").exists()


@pytest.mark.parametrize(
    "command", [["query", "ancestors", "-p", "paper=2402.06618"], ["stats", "--json"], ["query", "--list"]]
)
def test_a_closed_pipe_ends_quietly(session_kb, command):
    examples(session_kb)
    process = subprocess.Popen([*PAPERKG, *command], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdout.close()  # the reader leaves before the first line, as `| head -0` would
    stderr = process.stderr.read().decode()
    assert process.wait(timeout=60) == 141
    assert stderr == ""


def test_parse_explains_a_page_whose_totals_disagree_with_its_lists(capsys):
    assert main(["parse", str(EXAMPLES / "page_2311.11873.txt"), str(EXAMPLES / "card_2103.07781.txt")]) == 0
    out = capsys.readouterr().out
    page, card = out.split("\n" + str(EXAMPLES / "card_2103.07781.txt"))
    assert (
        "  DIFFERS   references it cites (integrity header): states 14, but its lists hold 6 "
        "(4 structured + 2 raw entries)"
    ) in page
    assert "  agrees    sources checked (integrity header): states 4, its lists hold 4" in page
    assert (
        "2 of the 11 totals this page states differ from what its own lists hold. That is a fact about "
        "the page, not an error: it is still ingested, with what its lists hold, and the totals it states "
        "are kept as stated."
    ) in page
    assert "DIFFERS" not in card and "differ" not in card and card.count("  agrees    ") == 2


def test_the_ingest_summary_counts_what_landed_as_stats_does(kb, capsys):
    forget()
    assert main(["ingest", str(EXAMPLES)]) == 0
    summary = capsys.readouterr().out.splitlines()
    stats = kb.stats()
    assert summary[0] == "21 documents: 21 new, 0 changed, 0 unchanged, 0 rejected"
    landed = {name: int(count) for count, name in re.findall(r"\+(\d+) (\w+)", summary[1])}
    assert landed == {
        name: count for group in stats.values() for name, count in group.items() if count and name != "IngestRun"
    }
    assert summary[2].startswith("the new and changed documents mention 154 papers, 133 citations between papers")
    # Again: nothing new lands, and it says so. The example files are older than a run's
    # racy window (paperkg.corpus.files), so their hashes come from the first run's reads.
    assert main(["ingest", str(EXAMPLES)]) == 0
    assert capsys.readouterr().out.splitlines()[1:] == [
        "21 unchanged files not read: their size and times are those they had when last read (--checksum reads them)",
        "graph: unchanged",
    ]
    forget()
