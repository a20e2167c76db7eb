"""docker/Dockerfile (the periodic job's image) cannot be built here: these tests check what can be.

Its shape (python:3.11-slim, non-root user, `paperkg` as entry point), and its build stage
replayed without Docker: only the paths it COPYs, built into a wheel the same way, must give a
package that finds its queries, Cypher statements and Browser files and runs `paperkg --help`.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCKERFILE = ROOT / "docker" / "Dockerfile"


def package_folders() -> dict[str, str]:
    """pyproject.toml's package-dir: each package made of a folder of the repository."""
    with (ROOT / "pyproject.toml").open("rb") as handle:
        return tomllib.load(handle)["tool"]["setuptools"]["package-dir"]


def build_wheel(source: Path, out: Path) -> Path:
    """The wheel pip builds of the project in `source`, as the image's build stage does."""
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "--disable-pip-version-check"]
    subprocess.run([*command, "-w", str(out), str(source)], check=True, timeout=300)
    (wheel,) = out.glob("paperkg-*.whl")
    return wheel


def instructions() -> list[tuple[str, str]]:
    text = re.sub(r"\\\n", " ", DOCKERFILE.read_text())
    return [
        (m[1].upper(), m[2].strip())
        for m in re.finditer(r"^\s*([A-Za-z]+)\s+(.*)$", text, re.M)
        if not m[0].lstrip().startswith("#")
    ]


def test_job_image_is_python_3_11_slim_run_as_a_non_root_user_with_paperkg_as_entry_point():
    steps = instructions()
    froms = [args for op, args in steps if op == "FROM"]
    assert froms and all(args.split()[0] == "python:3.11-slim" for args in froms)
    final = steps[max(i for i, (op, _) in enumerate(steps) if op == "FROM") :]
    users = [args for op, args in final if op == "USER"]
    assert users and users[-1].split(":")[0] not in ("0", "root")
    assert ("ENTRYPOINT", '["paperkg"]') in final


def test_job_image_build_stage_copies_every_folder_the_package_is_made_of():
    copied = {args.split()[0] for op, args in instructions() if op == "COPY" and not args.startswith("--from")}
    folders = set(package_folders().values())
    assert folders <= copied, f"COPY these too: {sorted(folders - copied)}"
    ignore = (ROOT / "docker" / "Dockerfile.dockerignore").read_text().split()
    assert {f"!{name}/" for name in folders} <= set(ignore)


def test_job_image_wheel_built_from_the_copied_paths_alone_runs_paperkg(tmp_path):
    context = tmp_path / "context"
    context.mkdir()
    for op, args in instructions():
        if op == "COPY" and not args.startswith("--from"):
            for source in args.split()[:-1]:
                path = ROOT / source
                if path.is_dir():
                    shutil.copytree(path, context / source, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
                else:
                    shutil.copy2(path, context / source)
    wheel = build_wheel(context, tmp_path / "wheels")
    installed = tmp_path / "site"
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        archive.extractall(installed)
    for name in (
        "paperkg/queries/ancestors.cypher",
        "paperkg/cypher/schema.cypher",
        "paperkg/browser/paperkg.grass",
        "paperkg/browser/guide/paperkg.html",
        "paperkg/browser/extension/Files.java",
        "paperkg/neo4j/pom.xml",
    ):
        assert name in names, f"{name} is missing from the image's wheel"
    check = (
        "from paperkg.library import library; from paperkg.cypher_files import statement; "
        "from paperkg import browser_guide, cli; import paperkg; "
        f"assert paperkg.__file__.startswith({str(installed)!r}), paperkg.__file__; "
        "assert len(library()) > 10, len(library()); assert statement('reset'); browser_guide.render_guide(); "
        "cli.main(['--help'])"
    )
    # -S: no site processing, so the development install's import hook can't stand in for the
    # wheel; the dependencies come from this environment's site-packages, after the wheel.
    site_packages = [path for path in sys.path if path.endswith("site-packages")]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(installed), *site_packages])}
    result = subprocess.run(
        [sys.executable, "-S", "-c", check], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert "usage: paperkg" in result.stdout
