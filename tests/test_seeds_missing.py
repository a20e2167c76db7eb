"""A clone without ../shared: the tests that need the seeds skip with one reason, and fail where CI=true."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from seeds import SEEDS_MISSING

TESTS = Path(__file__).resolve().parent
# One test reaching the seeds through tests/seeds.py, one through the `seeds_dir` fixture.
SEED_TESTS = [
    "test_parse_card.py::test_seed_000_builds_on_14_and_is_built_on_by_17",
    "test_cli.py::test_parse_json_prints_the_seed_models_with_their_counts",
]


def run_seed_tests(tmp_path: Path, ci: str | None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PAPERKG_SEEDS": str(tmp_path / "no-seeds-here")}
    env.pop("CI", None)
    if ci is not None:
        env["CI"] = ci
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-rs",
            "-p",
            "no:cacheprovider",
            *(str(TESTS / test) for test in SEED_TESTS),
        ],
        cwd=TESTS.parent,
        env=env,
        capture_output=True,
        text=True,
    )


def test_without_the_seeds_their_tests_skip_with_one_reason(tmp_path):
    result = run_seed_tests(tmp_path, ci=None)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "2 skipped" in result.stdout
    skips = [line for line in result.stdout.splitlines() if line.startswith("SKIPPED")]
    assert len(skips) == 2 and all(line.endswith(SEEDS_MISSING) for line in skips), skips


def test_with_ci_true_missing_seeds_fail(tmp_path):
    result = run_seed_tests(tmp_path, ci="true")
    assert result.returncode == 1, result.stdout + result.stderr
    # The test fails, the fixture's test errors: neither passes nor skips.
    assert "1 failed, 1 error" in result.stdout.splitlines()[-1]
    assert result.stdout.count(f"{SEEDS_MISSING}: CI=true requires them") >= 2
