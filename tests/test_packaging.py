"""The package is paperkg/ as it lies, plus the data folders pyproject.toml's package-dir maps
into it, with no symbolic links: a checkout works where links are not supported, and the wheel
and this (editable) install hold the same files."""

from __future__ import annotations

import shutil
import subprocess
import zipfile
from importlib import resources
from pathlib import Path

from test_dockerfile import ROOT, build_wheel, package_folders

from paperkg.package_data import FOLDERS, data_folder


def test_the_repository_holds_no_symbolic_links():
    entries = subprocess.run(["git", "ls-files", "-s"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert [line for line in entries.splitlines() if line.startswith("120000")] == []


def _shipped() -> dict[str, Path]:
    """Each tracked file of the package's folders, by its name inside the wheel."""
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    folders = {"paperkg": "paperkg", **package_folders()}
    shipped = {}
    for name in tracked:
        for package, folder in sorted(folders.items(), key=lambda item: -len(item[1])):
            if name.startswith(folder + "/"):
                shipped[package.replace(".", "/") + name[len(folder) :]] = ROOT / name
                break
    return shipped


def test_the_wheel_holds_every_file_of_the_package_folders_and_this_install_reads_them_alike(tmp_path):
    # Built from the tracked files, as a fresh clone is: setuptools keeps what it built before in
    # build/, so a build in this checkout may still hold a module since removed.
    checkout = tmp_path / "checkout"
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    for name in tracked:
        (checkout / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, checkout / name)
    wheel = build_wheel(checkout, tmp_path / "wheel")
    with zipfile.ZipFile(wheel) as archive:
        contents = {name: archive.read(name) for name in archive.namelist() if ".dist-info/" not in name}
    assert sorted(contents) == sorted(_shipped())
    for name, data in contents.items():
        top, _, rest = name.removeprefix("paperkg/").partition("/")
        if top in FOLDERS:
            found = data_folder(top).joinpath(rest)
        else:
            found = resources.files("paperkg").joinpath(name.removeprefix("paperkg/"))
        assert found.is_file() and found.read_bytes() == data, name


def test_no_python_file_is_mapped_into_a_package_of_another_name():
    tracked = subprocess.run(["git", "ls-files", *package_folders().values()], cwd=ROOT, capture_output=True, text=True)
    assert [name for name in tracked.stdout.split() if name.endswith(".py")] == []
    assert sorted(package_folders()) == sorted(f"paperkg.{folder}" for folder in FOLDERS)
