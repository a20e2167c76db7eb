"""Reading one document: its file read and hashed, parsed, and mapped to what it asserts."""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from pathlib import Path

from paperkg.corpus.files import Read
from paperkg.corpus.results import DocumentResult, rejected
from paperkg.graph.rows import Assertions, assertions_of
from paperkg.parse import ParseError, parse_bytes
from paperkg.parse.errors import excerpt


def read_document(
    path: Path,
    max_bytes: int,
    known: AbstractSet[str] = frozenset(),
    replacing: bool = False,
    digest: str | None = None,
    read_files: list[tuple] | None = None,
) -> tuple[DocumentResult, Assertions | None]:
    """Read, hash and parse one file: its result, and what it asserts unless it is unchanged
    (its content hash is a `known` document, wherever that lay) or rejected. `replacing`: the
    path held another document before (the result is "changed"). `digest`: the file's content
    hash, just read: a known one is not read again. `read_files`: where to append the file's row
    for the file-hash cache (FileHashes.record), once read. Whatever goes wrong rejects this
    document alone."""
    name = str(path)
    if digest is not None and digest in known:
        return DocumentResult(name, "unchanged", doc_id=digest), None
    try:
        read = Read.of(path, max_bytes)
    except OSError as exc:
        return rejected(name, f"cannot read: {exc.strerror}"), None
    except ParseError as exc:
        return rejected(name, exc.reason, exc.line), None
    data, doc_id = read.data, read.sha256
    if read_files is not None:
        read_files.append(read.row)
    if doc_id in known:
        return DocumentResult(name, "unchanged", doc_id=doc_id), None
    status = "changed" if replacing else "new"
    try:
        document = parse_bytes(data, name, max_bytes=max_bytes)
        assertions = assertions_of(document, doc_id=doc_id, size_bytes=len(data))
    except ParseError as exc:
        return rejected(name, exc.reason, exc.line), None
    except Exception as exc:  # a defect the parser or the mapping did not foresee
        return rejected(name, f"not mapped to the graph: {internal_error(exc)}"), None
    return DocumentResult(name, status, doc_id=doc_id, warnings=len(document.warnings)), assertions


def internal_error(exc: Exception) -> str:
    return f"internal error ({type(exc).__name__}): {excerpt(str(exc))}"
