"""Entry points: bytes or a file → a validated Card or Page, or a ParseError."""

from __future__ import annotations

import hashlib
import os

from paperkg.parse.card import parse_card
from paperkg.parse.errors import ParseError, excerpt
from paperkg.parse.models import Document
from paperkg.parse.page import is_page_header, parse_page
from paperkg.parse.text import DEFAULT_MAX_BYTES, read_lines


def parse_bytes(data: bytes, path: str, *, max_bytes: int = DEFAULT_MAX_BYTES) -> Document:
    """Parse one document; line 1 decides its kind (FORMAT.md §0). Raises only ParseError."""
    lines, text_meta = read_lines(data, path, max_bytes)
    common = {"path": path, "sha256": hashlib.sha256(data).hexdigest(), "text_meta": text_meta}
    try:
        if lines[0].startswith("# "):
            return parse_card(lines, **common)
        if is_page_header(lines[0]):
            return parse_page(lines, **common)
    except (ValueError, IndexError, KeyError, TypeError, AttributeError) as exc:
        # Last resort (pydantic's ValidationError is a ValueError): the parsers check their input
        # explicitly, so this is a parser bug, but the caller still gets the one exception type it
        # handles, never a half-built document.
        raise ParseError(path, None, f"internal parser error ({type(exc).__name__}): {excerpt(str(exc))}") from exc
    # Nothing of the line is quoted: a file that is not a document may hold anything (a password).
    raise ParseError(path, 1, "unknown document kind: line 1 is neither '# <title>' nor a claim-check header")


def parse_file(path: str | os.PathLike[str], *, max_bytes: int = DEFAULT_MAX_BYTES) -> Document:
    """Read and parse one file; an unreadable or oversized file is a ParseError too."""
    name = os.fspath(path)
    try:
        with open(name, "rb") as handle:
            # Read one byte past the limit so an oversized file is rejected without loading it whole.
            data = handle.read(max_bytes + 1)
    except OSError as exc:
        raise ParseError(name, None, f"cannot read the file: {exc.strerror or exc}") from exc
    return parse_bytes(data, name, max_bytes=max_bytes)
