"""Command-line manners: help with examples, version, completion, one-line errors, parse output."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from paperkg import __version__
from paperkg.cli import build_parser, main

COMMANDS = sorted(build_parser()._subparsers._group_actions[0].choices)


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "paperkg.cli", *args], capture_output=True, text=True)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help_with_an_example(command):
    result = run(command, "--help")
    assert result.returncode == 0
    assert "\nexample: paperkg " in result.stdout or "\nexample: eval" in result.stdout


def test_version():
    assert run("--version").stdout.strip() == f"paperkg {__version__}"


def test_bash_completion_names_every_command_and_is_valid_bash(tmp_path):
    script = run("completion", "bash").stdout
    for command in COMMANDS:
        assert f"        {command}) COMPREPLY=" in script
    (tmp_path / "completion.bash").write_text(script)
    assert subprocess.run(["bash", "-n", str(tmp_path / "completion.bash")]).returncode == 0


def test_errors_are_one_line_without_traceback_unless_verbose(tmp_path):
    missing = tmp_path / "nowhere.txt"
    result = run("parse", str(missing))
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert result.stderr.startswith(f"paperkg: error: {missing}")
    assert "\033[" not in result.stderr  # colour only on a terminal


def test_usage_errors_exit_2():
    assert run("reset").returncode == 2
    assert run("no-such-command").returncode == 2


def test_parse_json_prints_the_seed_models_with_their_counts(seeds_dir, capsys):
    files = sorted(str(path) for path in seeds_dir.iterdir())
    assert main(["parse", *files, "--json"]) == 0
    documents = {Path(doc["path"]).name[:3]: doc for doc in json.loads(capsys.readouterr().out)}
    page = documents["004"]
    assert len(page["claims"]) == 240
    assert len(page["references"]) == 200 and len(page["raw_references"]) == 146 and len(page["cited_by"]) == 100
    assert [item["what"] for item in page["reconciliation"] if not item["ok"]] == [
        "references it cites (integrity header)",
        "references (metadata)",
        "cited by (metadata)",
    ]
    assert len(documents["000"]["builds_on"]["items"]) == 14
    assert documents["001"]["builds_on"] is None
    assert documents["002"]["builds_on"]["shown"] == 30 and documents["002"]["builds_on"]["total"] == 44


def test_parse_rejects_each_malformed_document_in_one_line_and_goes_on(tmp_path, seeds_dir, capsys):
    cut = tmp_path / "cut_card.txt"
    card = next(seeds_dir.glob("000_*")).read_text(encoding="utf-8").split("\n")
    cut.write_text("\n".join(card[:20]), encoding="utf-8")  # the Builds on list stops after 7 of 14
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"# x\n\x00\x01")
    good = next(seeds_dir.glob("001_*"))
    assert main(["parse", str(cut), str(binary), str(good)]) == 1
    captured = capsys.readouterr()
    errors = captured.err.strip().split("\n")
    assert errors[0].startswith(f"paperkg: error: {cut}:11:")
    assert errors[1].startswith(f"paperkg: error: {binary}:2:")
    assert str(good) in captured.out


def test_parse_schema_is_json_schema():
    schema = json.loads(run("parse", "--schema").stdout)
    assert set(schema["discriminator"]["mapping"]) == {"card", "page"}


def test_the_scripts_in_ingest_are_the_commands_of_their_names(kb, tmp_path):
    root = Path(__file__).resolve().parents[1]
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name in ("card_2107.11820.txt", "card_2103.07781.txt"):
        (corpus / name).write_bytes((root / "examples" / "corpus" / name).read_bytes())

    def script(name: str, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, str(root / "ingest" / name), *args], capture_output=True, text=True)

    loaded = script("load.py", str(corpus))
    assert (loaded.returncode, loaded.stdout.splitlines()[0]) == (
        0,
        "2 documents: 2 new, 0 changed, 0 unchanged, 0 rejected",
    )
    (corpus / "card_2103.07781.txt").unlink()
    synced = script("sync.py", str(corpus), "--json")
    assert synced.returncode == 0
    assert json.loads(synced.stdout)["totals"] == {
        "seen": 1,
        "new": 0,
        "changed": 0,
        "unchanged": 1,
        "rejected": 0,
        "retracted": 1,
    }
    assert script("sync.py", "--help").stdout.startswith("usage: paperkg sync ")
