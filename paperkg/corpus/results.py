"""The results of a run's documents, kept on disk so that a run's memory does not grow with
the corpus.

A run reports on every document it saw (`paperkg ingest --json` lists them all), but it only
needs counts while it runs: holding a result per document in memory cost about as much as
the rest of the run at a quarter of a million papers (docs/performance.md). `DocumentResults`
keeps the counts the report gives (documents by status, rows written) and spools each result
to a temporary file as it is added; iterating reads them back in order.
"""

from __future__ import annotations

import json
import pickle
import tempfile
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field
from typing import IO, Any

STATUSES = ("new", "changed", "unchanged", "rejected", "retracted")


@dataclass
class DocumentResult:
    path: str
    status: str  # new | changed | unchanged | rejected | retracted (its file is gone; sync only)
    doc_id: str | None = None  # the SHA-256 of its content: a document is its content, wherever it lies
    error: str | None = None
    line: int | None = None
    counts: dict[str, int] = field(default_factory=dict)
    warnings: int = 0


class DocumentResults:
    """The documents' results in the order added, spooled to a temporary file; a result must
    be final when it is added (the file holds a copy)."""

    def __init__(self, results: Iterable[DocumentResult] = ()) -> None:
        self._spool: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115 (closed with the object)
        self._count = 0
        self.statuses: Counter = Counter()  # documents per status
        self.rows_written: Counter = Counter()  # the documents' counts, summed
        self.extend(results)

    def extend(self, results: Iterable[DocumentResult]) -> None:
        part = list(results)
        if not part:
            return
        self._spool.seek(0, 2)
        pickle.dump([astuple(result) for result in part], self._spool, protocol=pickle.HIGHEST_PROTOCOL)
        self._count += len(part)
        for result in part:
            self.statuses[result.status] += 1
            self.rows_written.update(result.counts)

    def append(self, result: DocumentResult) -> None:
        self.extend([result])

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[DocumentResult]:
        offset = 0
        self._spool.flush()
        end = self._spool.seek(0, 2)
        while offset < end:
            self._spool.seek(offset)
            part = pickle.load(self._spool)
            offset = self._spool.tell()
            for values in part:
                yield DocumentResult(*values)

    def close(self) -> None:
        self._spool.close()


def astuple(result: DocumentResult) -> tuple:
    """A result's fields in order (what DocumentResult(*values) takes back)."""
    return (result.path, result.status, result.doc_id, result.error, result.line, result.counts, result.warnings)


def write_json(report: dict[str, Any], documents: Iterable[DocumentResult], out: IO[str]) -> None:
    """`{**report, "documents": [...]}` as `json.dumps(..., indent=2, ensure_ascii=False)` writes
    it, with a line ending, one document at a time: a run's JSON never needs all of them in memory."""
    head = json.dumps({**report, "documents": []}, indent=2, ensure_ascii=False)
    empty = "[]\n}"
    out.write(head.removesuffix(empty))
    separator = "[\n"
    for document in documents:
        out.write(separator)
        text = json.dumps(asdict(document), indent=2, ensure_ascii=False)
        out.write("\n".join("    " + line for line in text.split("\n")))
        separator = ",\n"
    out.write(empty if separator == "[\n" else "\n  ]\n}")
    out.write("\n")


def rejected(path: str, reason: str, line: int | None = None) -> DocumentResult:
    """A document rejected for `reason` (at `line` of its file, when known)."""
    where = path if line is None else f"{path}:{line}"
    return DocumentResult(path, "rejected", error=f"{where}: {reason}", line=line)
