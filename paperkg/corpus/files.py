"""Reading document files, and what a run remembers of them between runs.

A re-ingest finds most documents unchanged, and reading every file only to hash it again was
most of its time. `FileHashes` keeps, per file, the content hash it had and its size, times,
inode and device when it was read (a SQLite file in the user's cache directory: it says nothing
about any graph, only about files). A file whose stat is what it was is taken to hold what it
held, as `git status` and `rsync` do, and is not read. The change time is the anchor: any
write sets it to the current time, and no call sets it back.

A write in the same clock tick as the read that recorded the file could leave its stat as it
was ("racy git"). So an entry is trusted only when the file's times are older than the moment
its read began by RACY_SECONDS, which covers timestamps as coarse as FAT's; a file written
since is read again, and its entry recorded again. `--checksum` (`checksum=True`) reads every
file whatever its stat.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sqlite3
import stat
import time
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from paperkg.dirs import user_cache_dir
from paperkg.parse.errors import ParseError

log = logging.getLogger("paperkg")
RACY_SECONDS = 3.0
FORMAT = 1  # the cache's layout: a file of another layout is emptied and filled again
FILE_NAME = "file-hashes.sqlite3"
BUSY_SECONDS = 30  # another run writing its entries to the same file


def cache_path() -> Path:
    """Where the cache lives: in the user's cache directory (dirs.user_cache_dir)."""
    return user_cache_dir() / FILE_NAME


class Read(NamedTuple):
    """A file as read: its bytes, their SHA-256 (hex), and the cache's row for it."""

    data: bytes
    sha256: str
    row: tuple

    @classmethod
    def of(cls, path: str | os.PathLike, max_bytes: int) -> Read:
        """read_regular_file, hashed, with the moment its read began."""
        began = time.time_ns()
        data, found = read_regular_file(path, max_bytes)
        digest = hashlib.sha256(data)
        return cls(data, digest.hexdigest(), (os.fspath(path), *_Stat.of(found), began, digest.digest()))


def read_regular_file(path: str | os.PathLike, max_bytes: int) -> tuple[bytes, os.stat_result]:
    """The bytes of a regular file, at most `max_bytes`, and its stat as they were read. Opened
    without blocking, so that a FIFO or device put in a document's place is rejected instead of
    waited on; a file that changes while it is read is rejected too (the next run reads it again)."""
    name = str(path)
    if not stat.S_ISREG(os.stat(path).st_mode):
        raise ParseError(name, None, "not a regular file: only regular files are read")
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    with open(fd, "rb", buffering=0) as handle:
        before = os.fstat(fd)
        if not stat.S_ISREG(before.st_mode):
            raise ParseError(name, None, "not a regular file: only regular files are read")
        if before.st_size > max_bytes:
            raise ParseError(name, None, f"document is {before.st_size:,} bytes, over the limit of {max_bytes:,}")
        data = handle.read(before.st_size + 1)  # one byte more shows a file that grew
        after = os.fstat(fd)
    if len(data) != before.st_size or (after.st_size, after.st_mtime_ns) != (before.st_size, before.st_mtime_ns):
        raise ParseError(name, None, "changed while being read: it is read again on the next run")
    return data, after


class Digest(NamedTuple):
    """A file's content hash (None: the file cannot be read as a document), and whether it
    was taken from the cache instead of the file."""

    sha256: str | None
    cached: bool


class _Stat(NamedTuple):
    size: int
    mtime_ns: int
    ctime_ns: int
    inode: int
    device: int

    @classmethod
    def of(cls, found: os.stat_result) -> _Stat:
        return cls(found.st_size, found.st_mtime_ns, found.st_ctime_ns, found.st_ino, found.st_dev)


class FileHashes:
    """The content hash of each file, from the cache at `path` when the file's stat allows (see
    the module's doc), else read and recorded. A cache that cannot be opened reads every file;
    so does `checksum`, which still records what it reads."""

    def __init__(self, path: Path, checksum: bool = False) -> None:
        self.checksum = checksum
        self.path = path
        self._db: sqlite3.Connection | None = None
        try:
            self._db = _open(path)
        except (OSError, sqlite3.Error) as exc:
            log.warning(f"the file-hash cache {path} cannot be used ({exc}): every file is read")

    def digests(self, paths: Sequence[str | os.PathLike], max_bytes: int) -> list[Digest]:
        """Each file's Digest, in order; one cache lookup and one commit for all of them."""
        names = [os.fspath(path) for path in paths]
        known = self._entries(names) if not self.checksum else {}
        digests, recorded = [], []
        for name in names:
            entry = known.get(name)
            if entry is not None:
                try:
                    found = os.stat(name)
                except OSError:
                    found = None
                if found is not None and _trusted(entry, found, max_bytes):
                    digests.append(Digest(entry[1].hex(), True))
                    continue
            try:
                read = Read.of(name, max_bytes)
            except (OSError, ParseError):
                digests.append(Digest(None, False))
                continue
            digests.append(Digest(read.sha256, False))
            recorded.append(read.row)
        self.record(recorded)
        return digests

    def forget_missing(self, directory: str | os.PathLike, present: set[str]) -> None:
        """Drop the entries of files below `directory` that are not in `present` (a sync's
        listing of it): the cache holds the files there are, not every file there was."""
        if self._db is None:
            return
        prefix = f"{os.fspath(directory).rstrip(os.sep)}{os.sep}"
        try:
            rows = self._db.execute(
                "SELECT path FROM files WHERE path >= ? AND path < ?", (prefix, _after_prefix(prefix))
            ).fetchall()
            gone = [(path,) for (path,) in rows if path not in present]
            with self._db:
                self._db.executemany("DELETE FROM files WHERE path = ?", gone)
        except sqlite3.Error as exc:
            self._failed(exc)

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    def __enter__(self) -> FileHashes:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _entries(self, names: list[str]) -> dict[str, tuple[_Stat, bytes, int]]:
        if self._db is None or not names:
            return {}
        try:
            rows = self._db.execute(
                "SELECT path, size, mtime_ns, ctime_ns, inode, device, sha256, hashed_ns FROM files "
                "WHERE path IN (SELECT value FROM json_each(?))",
                (json.dumps(names),),
            ).fetchall()
        except sqlite3.Error as exc:
            self._failed(exc)
            return {}
        return {row[0]: (_Stat(*row[1:6]), row[6], row[7]) for row in rows}

    def record(self, rows: list[tuple]) -> None:
        """Keep the rows of files read (`Read.row`), in one transaction."""
        if self._db is None or not rows:
            return
        try:
            with self._db:
                self._db.executemany(
                    "INSERT OR REPLACE INTO files (path, size, mtime_ns, ctime_ns, inode, device, hashed_ns, sha256) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    rows,
                )
        except sqlite3.Error as exc:
            self._failed(exc)

    def _failed(self, exc: sqlite3.Error) -> None:
        """A cache that fails in use is left: the run reads every file from here on."""
        log.warning(f"the file-hash cache {self.path} failed ({exc}): every file is read")
        self.close()


def _trusted(entry: tuple[_Stat, bytes, int], found: os.stat_result, max_bytes: int) -> bool:
    recorded, _, hashed_ns = entry
    newest = max(found.st_mtime_ns, found.st_ctime_ns)
    return (
        stat.S_ISREG(found.st_mode)
        and found.st_size <= max_bytes
        and _Stat.of(found) == recorded
        and newest < hashed_ns - int(RACY_SECONDS * 1e9)
    )


def _open(path: Path) -> sqlite3.Connection:
    """The cache's database, made when missing; one of another FORMAT is emptied first. Used by
    one thread at a time: the run's reading thread, then the run's own. Its directory is the
    user's alone, as the managed server's home is: it names every file read."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    db = sqlite3.connect(path, timeout=BUSY_SECONDS, check_same_thread=False)
    try:
        if db.execute("PRAGMA user_version").fetchone()[0] != FORMAT:
            with db:
                db.execute("DROP TABLE IF EXISTS files")
                db.execute(
                    "CREATE TABLE files (path TEXT PRIMARY KEY, size INTEGER, mtime_ns INTEGER, "
                    "ctime_ns INTEGER, inode INTEGER, device INTEGER, hashed_ns INTEGER, sha256 BLOB) WITHOUT ROWID"
                )
                db.execute(f"PRAGMA user_version = {FORMAT}")
    except sqlite3.Error:
        db.close()
        raise
    return db


def _after_prefix(prefix: str) -> str:
    """The least string after every string that starts with `prefix`."""
    return prefix[:-1] + chr(ord(prefix[-1]) + 1)
