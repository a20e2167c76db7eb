"""Every command block of the README, in order, on the suite's managed Neo4j loaded by the README's
own `paperkg ingest examples/corpus`: each command answers, and with rows where the README shows rows."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
BLOCK = re.compile(r"^```(?P<lang>\w*)\n(?P<body>.*?)^```$", re.M | re.S)
ROWS = re.compile(r"^\((\d+) rows?\)$", re.M)
# What a test cannot run: the set-up (a virtualenv and an install from the network: the suite
# runs in the one they make, whose `paperkg` each command below finds first on its PATH, as
# `source .venv/bin/activate` puts it), and make, which is what runs the suite.
NOT_RUN = ("python3 -m venv ", ".venv/bin/pip ", "source ", "make ")
MAX_LINES = 200


def blocks(lang: str) -> list[str]:
    return [m["body"] for m in BLOCK.finditer(README) if m["lang"] == lang]


def console_commands() -> list[tuple[str, str]]:
    """(command, the output the README shows) for each `$ ` line of the console blocks."""
    steps: list[tuple[str, list[str]]] = []
    for body in blocks("console"):
        for line in body.splitlines():
            if line.startswith("$ "):
                steps.append((line[2:], []))
            else:
                steps[-1][1].append(line)
    return [(command, "\n".join(output)) for command, output in steps]


def shell(command: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "COLUMNS": "120", "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    return subprocess.run(
        ["bash", "-o", "pipefail", "-c", command], cwd=cwd, env=env, capture_output=True, text=True, timeout=300
    )


@pytest.fixture(scope="module")
def empty(session_kb):
    from ecosystem import forget

    session_kb.reset()
    forget()
    yield session_kb
    forget()  # the next ecosystem module loads its corpus again


def test_the_readme_shows_a_session_of_each_kind_of_question():
    commands = " ".join(command for command, _ in console_commands())
    for needed in (
        "db start",
        "parse examples/corpus",
        "ingest examples/corpus",
        "stats",
        "find_papers",
        "ancestors",
        "cocited_with",
        "unsupported_claims",
    ):
        assert needed in commands
    examples = "".join(blocks("console") + blocks("sh") + blocks("python"))
    assert not any(seed in examples for seed in ("../shared", "2501.16496", "2005.00719", "2104.08197"))


def test_every_readme_command_answers_with_rows_where_the_readme_shows_rows(empty, tmp_path):
    for command, shown in console_commands():
        result = shell(command, ROOT)
        # `| head` closes the pipe early: exit 141 (see the README), quietly.
        assert result.returncode in ((0, 141) if "| head" in command else (0,)), (command, result.stderr)
        assert "Traceback" not in result.stderr, (command, result.stderr)
        if rows := ROWS.search(shown):
            counted = ROWS.search(result.stdout)
            assert counted and counted[1] == rows[1], (command, result.stdout)
            assert int(rows[1]) > 0, command
        elif shown.strip():
            assert result.stdout.strip(), command
            # The README shows a first start; the suite's server is already running.
            said = result.stdout.replace("Neo4j already running:", "Neo4j started:", 1)
            assert said.splitlines()[0].split(":")[0] == shown.splitlines()[0].split(":")[0], command
    for body in blocks("sh"):
        for line in body.splitlines():
            command = line.split(" # ")[0].strip()
            if command and not command.startswith(NOT_RUN):
                result = shell(command, tmp_path)
                assert result.returncode == 0, (command, result.stderr)


def test_every_python_example_of_the_readme_answers_with_rows(empty):
    shell("paperkg ingest examples/corpus --quiet", ROOT)
    namespace: dict = {}
    for body in blocks("python"):
        for statement in ast.parse(body).body:
            code = ast.Module([statement], type_ignores=[])
            if isinstance(statement, ast.Expr):
                value = eval(compile(ast.Expression(statement.value), "README", "eval"), namespace)
                shown = getattr(value, "subgraph", None)
                size = len(shown.nodes) if shown is not None else len(value)
                assert size > 0, ast.unparse(statement)
            else:
                exec(compile(code, "README", "exec"), namespace)
    namespace["kb"].close()


def test_the_readme_is_a_front_door_whose_links_lead_into_the_repository():
    assert len(README.splitlines()) <= MAX_LINES
    links = re.findall(r"\]\((?!https?://)([^)#]+)(?:#[^)]*)?\)", README)
    assert "docs/index.md" in links and "docs/images/browser-lineage.png" in links
    assert [link for link in links if not (ROOT / link).is_file()] == []
