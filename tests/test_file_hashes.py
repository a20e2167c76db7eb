"""What a run remembers of the files it read (paperkg.corpus.files): an unchanged file is known
by its stat and not read; any write, or a write too recent to tell, makes it read again."""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import sqlite3
import time
from pathlib import Path

from paperkg.corpus import files
from paperkg.corpus.files import Digest, FileHashes, cache_path
from paperkg.run.ingest import ingest_paths, sync_directory

from graph_dump import dump

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "corpus"
SETTLE = 0.2  # seconds after which a file written in a test is trusted, under short_racy_window (conftest)


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def written(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    time.sleep(SETTLE)
    return path


def test_the_cache_lives_in_the_users_cache_directory_readable_by_the_user_alone(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_path() == tmp_path / "xdg" / "paperkg" / "file-hashes.sqlite3"
    with FileHashes(cache_path()):
        assert (tmp_path / "xdg" / "paperkg").stat().st_mode & 0o777 == 0o700
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache_path() == tmp_path / "home" / ".cache" / "paperkg" / "file-hashes.sqlite3"


def test_a_file_whose_stat_is_what_it_was_is_not_read_again(tmp_path, short_racy_window, monkeypatch):
    card = written(tmp_path / "card.txt", b"# A title\n")
    with FileHashes(tmp_path / "cache.sqlite3") as hashes:
        assert hashes.digests([card], 100) == [Digest(sha256(b"# A title\n"), False)]

    def not_read(path, max_bytes):
        raise AssertionError(f"{path} was read")

    monkeypatch.setattr(files, "read_regular_file", not_read)
    with FileHashes(tmp_path / "cache.sqlite3") as hashes:  # another run
        assert hashes.digests([card], 100) == [Digest(sha256(b"# A title\n"), True)]


def test_a_rewrite_that_keeps_the_size_and_the_modification_time_is_read_again(tmp_path, short_racy_window):
    card = written(tmp_path / "card.txt", b"# A title\n")
    before = card.stat()
    with FileHashes(tmp_path / "cache.sqlite3") as hashes:
        hashes.digests([card], 100)
        card.write_bytes(b"# B title\n")
        os.utime(card, ns=(before.st_atime_ns, before.st_mtime_ns))
        assert (card.stat().st_size, card.stat().st_mtime_ns) == (before.st_size, before.st_mtime_ns)
        assert hashes.digests([card], 100) == [Digest(sha256(b"# B title\n"), False)]


def test_a_file_written_within_the_racy_window_is_read_again(tmp_path):
    card = tmp_path / "card.txt"
    card.write_bytes(b"# A title\n")
    with FileHashes(tmp_path / "cache.sqlite3") as hashes:
        first = hashes.digests([card], 100)
        assert hashes.digests([card], 100) == first == [Digest(sha256(b"# A title\n"), False)]


def test_checksum_reads_every_file_and_records_what_it_read(tmp_path, short_racy_window):
    card = written(tmp_path / "card.txt", b"# A title\n")
    with FileHashes(tmp_path / "cache.sqlite3") as hashes:
        hashes.digests([card], 100)
    with FileHashes(tmp_path / "cache.sqlite3", checksum=True) as hashes:
        assert hashes.digests([card], 100) == [Digest(sha256(b"# A title\n"), False)]
    with FileHashes(tmp_path / "cache.sqlite3") as hashes:
        assert hashes.digests([card], 100) == [Digest(sha256(b"# A title\n"), True)]


def test_a_file_over_the_size_limit_is_not_taken_from_the_cache(tmp_path, short_racy_window):
    card = written(tmp_path / "card.txt", b"# A title\n")
    with FileHashes(tmp_path / "cache.sqlite3") as hashes:
        hashes.digests([card], 100)
        assert hashes.digests([card], 5) == [Digest(None, False)]


def test_a_cache_that_cannot_be_opened_reads_every_file_and_says_so_in_one_line(tmp_path, caplog):
    broken = tmp_path / "cache.sqlite3"
    broken.write_bytes(b"not a database, " * 100)
    card = tmp_path / "card.txt"
    card.write_bytes(b"# A title\n")
    with caplog.at_level(logging.WARNING, logger="paperkg"), FileHashes(broken) as hashes:
        assert hashes.digests([card], 100) == [Digest(sha256(b"# A title\n"), False)]
    assert [record.getMessage() for record in caplog.records] == [
        f"the file-hash cache {broken} cannot be used (file is not a database): every file is read"
    ]


def test_a_cache_of_another_layout_is_emptied(tmp_path, short_racy_window):
    old = tmp_path / "cache.sqlite3"
    with sqlite3.connect(old) as db:
        db.execute("CREATE TABLE files (path TEXT PRIMARY KEY, sha256 TEXT)")
        db.execute("INSERT INTO files VALUES ('x', 'y')")
    db.close()
    card = written(tmp_path / "card.txt", b"# A title\n")
    with FileHashes(old) as hashes:
        assert hashes.digests([card], 100) == [Digest(sha256(b"# A title\n"), False)]
        assert hashes.digests([card], 100) == [Digest(sha256(b"# A title\n"), True)]
    with sqlite3.connect(old) as db:
        assert db.execute("SELECT path FROM files").fetchall() == [(str(card),)]
    db.close()


def test_a_reingest_knows_unchanged_files_by_their_stat_and_a_same_size_edit_still_lands(
    kb, tmp_path, short_racy_window, cache_home
):
    corpus = tmp_path / "corpus"
    shutil.copytree(EXAMPLES, corpus)
    time.sleep(SETTLE)
    assert ingest_paths(kb, [corpus]).unchanged_not_read == 0
    again = ingest_paths(kb, [corpus])
    assert (again.totals["unchanged"], again.unchanged_not_read) == (21, 21)
    # The same number of bytes, another abstract, the old modification time.
    card = corpus / "card_1502.06401.txt"
    before = card.stat()
    text = card.read_bytes()
    card.write_bytes(text.replace(b"Roots are measured", b"Roots are Measured", 1))
    os.utime(card, ns=(before.st_atime_ns, before.st_mtime_ns))
    time.sleep(SETTLE)
    edited = ingest_paths(kb, [corpus])
    assert (edited.totals["changed"], edited.totals["unchanged"], edited.unchanged_not_read) == (1, 20, 20)
    graph = dump(kb)
    kb.reset()
    fresh = ingest_paths(kb, [corpus], checksum=True)
    assert (fresh.totals["new"], fresh.unchanged_not_read) == (21, 0)
    assert dump(kb) == graph


def test_sync_forgets_the_files_that_are_gone(kb, tmp_path, cache_home):
    corpus = tmp_path / "corpus"
    shutil.copytree(EXAMPLES, corpus)
    sync_directory(kb, corpus)
    (corpus / "card_1502.06401.txt").unlink()
    report = sync_directory(kb, corpus)
    assert report.totals["retracted"] == 1
    with sqlite3.connect(cache_home / "paperkg" / "file-hashes.sqlite3") as db:
        cached = {
            Path(path).name for (path,) in db.execute("SELECT path FROM files WHERE path LIKE ?", (f"{corpus}%",))
        }
    db.close()
    assert cached == {path.name for path in corpus.iterdir()} and len(cached) == 20
