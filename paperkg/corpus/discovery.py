"""Which files are documents: the paths a run is given, directories walked, links judged."""

from __future__ import annotations

import os
import stat
from array import array
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import overload

from paperkg.corpus.results import DocumentResult, rejected


class PathList(Sequence[Path]):
    """Paths kept as the UTF-8 bytes of their names in one buffer, each a Path again when read.
    A run holds the path of every file it reads, and a string object per path costs twice its
    name (a Path object several times): in one buffer they are no objects at all, so a worker
    process forked from the run reads them without writing to the pages it shares with it, as
    it would each string's reference count (docs/benchmarks.md#how-the-write-path-is-fast).
    The names are UTF-8: discovery rejects any other."""

    _names: bytes
    _ends: array[int]  # where each name ends in _names

    def __init__(self, paths: Iterable[str | os.PathLike] = ()) -> None:
        if isinstance(paths, PathList):
            self._names, self._ends = paths._names, paths._ends
            return
        names = bytearray()
        self._ends = array("Q")
        for path in paths:
            names += os.fspath(path).encode("utf-8")
            self._ends.append(len(names))
        self._names = bytes(names)

    def __len__(self) -> int:
        return len(self._ends)

    def _name(self, index: int) -> str:
        start = self._ends[index - 1] if index > 0 else 0
        return self._names[start : self._ends[index]].decode("utf-8")

    @overload
    def __getitem__(self, index: int) -> Path: ...
    @overload
    def __getitem__(self, index: slice) -> list[Path]: ...
    def __getitem__(self, index: int | slice) -> Path | list[Path]:
        if isinstance(index, slice):
            return [Path(self._name(i)) for i in range(len(self))[index]]
        return Path(self._name(range(len(self))[index]))

    def __iter__(self) -> Iterator[Path]:
        return (Path(self._name(index)) for index in range(len(self)))

    def names(self) -> list[str]:
        return [self._name(index) for index in range(len(self))]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and list(self) == list(other)

    def __repr__(self) -> str:
        return f"PathList({self.names()!r})"


@dataclass
class Discovery:
    """What discover found: the files to read, in order; the entries it could not take (each
    rejected with its reason); and the directories it could not list, whose documents a sync
    must keep rather than retract as gone."""

    files: PathList = field(default_factory=PathList)
    rejected: list[DocumentResult] = field(default_factory=list)
    unlisted: list[Path] = field(default_factory=list)


def discover(paths: Iterable[str | os.PathLike], *, follow_links: bool = False) -> Discovery:
    """Files named, and files under directories named (recursively, hidden ones skipped), sorted.

    Below a directory only regular files are taken, and links to files inside it (as the file
    they lead to); links to directories are not followed (as Path.rglob), and broken links,
    link loops and special files are skipped. A link to a file outside the directory is
    rejected unless `follow_links`: then it is read as the document at the link's own path,
    so that removing the link retracts it. Names that are not UTF-8 and directories that
    cannot be listed are rejected. A path named that does not exist is FileNotFoundError.
    """
    found: dict[str, None] = {}  # the files' paths, in order (strings: see PathList)
    discovery = Discovery()
    for given in paths:
        path = Path(given)
        try:
            is_directory = stat.S_ISDIR(path.stat().st_mode)
        except OSError as exc:
            raise FileNotFoundError(f"{shown(path)}: {_no_such(exc)}") from None
        if not is_directory:
            if _named_in_utf8(path, discovery):
                found[str(path.resolve())] = None
            continue
        root = path.resolve()
        if not _named_in_utf8(root, discovery):
            discovery.unlisted.append(root)
            continue
        listed: list[str] = []
        linked: dict[str, str] = {}
        _walk(root, root, follow_links, listed, linked, discovery)
        listed.sort()
        found.update((linked.get(file, file), None) for file in listed)
    discovery.files = PathList(found)
    return discovery


def _walk(
    directory: Path, root: Path, follow_links: bool, listed: list[str], linked: dict[str, str], discovery: Discovery
) -> None:
    """Add the path of each file to read below `directory` to `listed`, and for a link the
    document it stands for to `linked` (see discover). Entries are taken as the listing yields
    them, not held: a corpus directory lists every document
    (docs/benchmarks.md#how-the-write-path-is-fast)."""
    files: list[str] = []
    links: dict[str, str] = {}
    subdirectories: list[Path] = []
    try:
        with os.scandir(directory) as listing:
            for entry in listing:
                _take(entry, root, follow_links, files, links, subdirectories, discovery)
    except OSError as exc:
        discovery.unlisted.append(directory)
        discovery.rejected.append(rejected(shown(directory), f"cannot list the directory: {exc.strerror}"))
        return
    listed += files
    linked.update(links)
    for subdirectory in subdirectories:
        _walk(subdirectory, root, follow_links, listed, linked, discovery)


def _take(
    entry: os.DirEntry,
    root: Path,
    follow_links: bool,
    files: list[str],
    links: dict[str, str],
    subdirectories: list[Path],
    discovery: Discovery,
) -> None:
    """Sort one entry of a listing: a file to read, a link (with its document), a directory to
    list next, or something skipped or rejected."""
    if entry.name.startswith(".") or not _named_in_utf8(entry.path, discovery):
        return
    try:
        if entry.is_dir(follow_symlinks=False):
            subdirectories.append(Path(entry.path))
        elif entry.is_symlink():
            document = _linked_document(Path(entry.path), root, follow_links, discovery)
            if document is not None:
                files.append(entry.path)
                links[entry.path] = str(document)
        elif entry.is_file(follow_symlinks=False):
            files.append(entry.path)
    except OSError as exc:  # the entry went away or cannot be examined
        discovery.rejected.append(rejected(entry.path, f"cannot read: {exc.strerror}"))


def _linked_document(link: Path, root: Path, follow_links: bool, discovery: Discovery) -> Path | None:
    """The document a link below `root` stands for: the file it leads to when that is inside
    `root`, the link itself when it leads outside and links are followed, else None."""
    try:
        target = link.resolve(strict=True)
        regular = stat.S_ISREG(target.stat().st_mode)
    except (OSError, RuntimeError):  # broken, or a loop
        return None
    if not regular:
        return None
    if target.is_relative_to(root):
        return target
    if follow_links:
        return link
    discovery.rejected.append(
        rejected(str(link), f"a link to a file outside {root}: not followed (--follow-links reads it)")
    )
    return None


def _named_in_utf8(path: str | Path, discovery: Discovery) -> bool:
    """False, with the path rejected, when its name cannot be stored: Neo4j strings are UTF-8."""
    try:
        str(path).encode("utf-8")
    except UnicodeEncodeError:
        discovery.rejected.append(rejected(shown(path), "the file name is not valid UTF-8: rename the file"))
        return False
    return True


def shown(path: str | os.PathLike) -> str:
    """A path as messages print it: bytes that are not UTF-8 escaped (`x\\xff.txt`)."""
    return os.fsencode(path).decode("utf-8", errors="backslashreplace")


def _no_such(exc: OSError) -> str:
    return "no such file or directory" if isinstance(exc, FileNotFoundError) else f"cannot open: {exc.strerror}"
