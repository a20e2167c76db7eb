"""The documentation site (docs/, mkdocs.yml): its generated parts are what docs/gen.py makes of the
code and the benchmark's figures now, it builds with warnings as errors, and it and the repository
name no document outside the repository."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


def gen():
    spec = importlib.util.spec_from_file_location("docs_gen", DOCS / "gen.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_generated_parts_of_the_pages_are_what_the_generator_makes_now():
    pages = gen().pages()
    assert {path.name for path in pages} == {"model.md", "queries.md", "benchmarks.md"}
    stale = [path.name for path, text in pages.items() if path.read_text(encoding="utf-8") != text]
    assert stale == [], f"{', '.join(stale)} stale: run `.venv/bin/python docs/gen.py`"


def test_the_model_page_describes_every_property_of_the_graph_contract():
    contract = gen().contract_module()
    model = (DOCS / "model.md").read_text(encoding="utf-8")
    for label, (key, _) in contract.NODES.items():
        assert f"### {label}" in model
        for name, kind in {key: "string", **contract.properties(label)}.items():
            assert re.search(rf"^\| `{name}`( \(key, unique\))? \| {re.escape(kind)} \| \S", model, re.M), (label, name)
    for kind, start, end, props in contract.RELATIONSHIPS.values():
        assert f"| `(:{start})-[:{kind}]->(:{end})` |" in model
        for name in props:
            assert re.search(rf"^\| `\(:{start}\)-\[:{kind}\]->\(:{end}\)` (`\w+`, )*`{name}`", model, re.M), (
                kind,
                name,
            )


def test_the_query_page_has_a_section_per_query_with_its_parameters_and_columns():
    from paperkg.library import library

    queries = (DOCS / "queries.md").read_text(encoding="utf-8")
    sections = re.findall(r"^## (\w+)$", queries, re.M)
    assert sections[: len(library())] == library().names
    for query in library():
        section = queries.split(f"\n## {query.name}\n", 1)[1].split("\n## ", 1)[0]
        for param in query.params:
            assert f"| `{param.name}` | {param.kind.replace('|', chr(92) + '|')} |" in section, (query.name, param.name)
        for column in query.columns:
            assert f"| `{column.name}` |" in section, (query.name, column.name)
        assert f"paperkg query {query.name}" in section


def test_the_performance_page_shows_the_benchmarks_figures_with_the_commands_that_measured_them():
    results = json.loads((ROOT / "bench" / "results.json").read_text(encoding="utf-8"))
    page = (DOCS / "benchmarks.md").read_text(encoding="utf-8")
    fifty = results["sizes"][-1]
    for figure in (
        fifty["ratios"]["bulk_vs_load_csv"],
        fifty["ratios"]["ingest_vs_load_csv"],
        fifty["load_csv"]["seconds"],
        fifty["ingest"]["seconds"],
        fifty["bulk"]["seconds"],
        fifty["admin_import"]["total_seconds"],
        fifty["reingest"]["seconds"],
    ):
        assert f"{figure:,}" in page, figure
    for run in [results, *results["partial_runs"].values()]:
        assert f"`{run['command']}`" in page


def test_the_benchmarks_commands_hold_relative_paths_and_options_only():
    results = json.loads((ROOT / "bench" / "results.json").read_text(encoding="utf-8"))
    commands = [results["command"]]
    commands += [run["command"] for run in results["partial_runs"].values()]
    commands += [goal["command"] for goal in results["goals"]]
    for command in commands:
        words = command.split()
        assert words[:2] == ["python", "bench/run.py"], command
        assert not any(word.startswith(("/", "~")) for word in words), command


def test_no_file_of_the_repository_names_a_document_outside_it():
    # The seeds are read by the tests that need them (tests/seeds.py); what the formats and the
    # model are is said by docs/formats.md and docs/model.md.
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True, check=True)
    outside = re.compile(r"MODEL\.md|FORMAT\.md|\.\./shared/spec")
    named = [
        name
        for name in listed.stdout.split("\0")
        if name and (ROOT / name).is_file()
        if outside.search((ROOT / name).read_text(encoding="utf-8", errors="replace"))
    ]
    assert named == []


def test_the_docs_hold_no_work_log():
    for page in DOCS.glob("*.md"):
        text = page.read_text(encoding="utf-8")
        assert not re.search(r"\b\w+(st|nd|rd|th) session\b|\bwe tried\b|\bbranch s\d+", text, re.I), page.name


@pytest.mark.skipif(
    shutil.which("mkdocs", path=str(Path(sys.executable).parent)) is None,
    reason="mkdocs is not installed: pip install -e '.[docs]' (the test extra includes it)",
)
def test_the_site_builds_with_warnings_as_errors(tmp_path):
    mkdocs = Path(sys.executable).parent / "mkdocs"
    built = subprocess.run(
        [str(mkdocs), "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert built.returncode == 0, built.stderr
    assert (tmp_path / "site" / "model" / "index.html").is_file()
    assert (tmp_path / "site" / "images" / "browser-lineage.png").is_file()
