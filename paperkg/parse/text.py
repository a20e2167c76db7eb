"""Raw bytes → normalised lines (FORMAT.md §0), rejecting what is not a text document."""

from __future__ import annotations

import re

from paperkg.limits import MAX_DOCUMENT_BYTES as DEFAULT_MAX_BYTES  # one limit, the parser's
from paperkg.parse.errors import ParseError
from paperkg.parse.models import TextMeta

_BOM = "\ufeff"
# C0 controls other than tab/LF/CR, DEL and the C1 controls: their presence means binary data.
# (Python's str.splitlines would also break lines at \v, \f, \x1c-\x1e, \x85; we split only at CR/LF.)
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
# The same test on the raw bytes, which is several times quicker than a search of the decoded
# text: deleting every other byte leaves the C0 controls and DEL, and a C1 control is encoded as
# 0xC2 0x80-0x9F. Only a document that fails it is searched again with _CONTROL, to name the line.
_NOT_C0_OR_DEL = bytes(code for code in range(256) if _CONTROL.fullmatch(chr(code)) is None or code >= 0x80)
_C1_ENCODED = re.compile(b"\xc2[\x80-\x9f]")


def _line_of_offset(data: bytes, offset: int) -> int:
    """1-based line of a byte offset, counting CRLF, LF and lone CR as one break each."""
    head = data[:offset]
    crlf = head.count(b"\r\n")
    return head.count(b"\n") + head.count(b"\r") - crlf + 1


def _line_of_index(text: str, index: int) -> int:
    head = text[:index]
    return head.count("\n") + head.count("\r") - head.count("\r\n") + 1


def _line_endings(data: bytes) -> str:
    """Counted on the bytes: in UTF-8 a CR or LF byte is always that character."""
    if b"\r" not in data:
        return "lf" if b"\n" in data else "none"
    crlf = data.count(b"\r\n")
    kinds = [
        name
        for name, count in (
            ("lf", data.count(b"\n") - crlf),
            ("crlf", crlf),
            ("cr", data.count(b"\r") - crlf),
        )
        if count
    ]
    if not kinds:
        return "none"
    return kinds[0] if len(kinds) == 1 else "mixed"


def read_lines(data: bytes, path: str, max_bytes: int = DEFAULT_MAX_BYTES) -> tuple[list[str], TextMeta]:
    """Decode `data` as strict UTF-8 and split it into lines without trailing spaces or tabs.

    A BOM, CRLF or lone-CR line breaks and a final line break are accepted and reported in the
    returned TextMeta. Raises ParseError for an oversized, empty or binary document.
    """
    if len(data) > max_bytes:
        raise ParseError(path, None, f"document is {len(data)} bytes, over the limit of {max_bytes} bytes")
    nul = data.find(b"\x00")
    if nul >= 0:
        raise ParseError(path, _line_of_offset(data, nul), "NUL byte: binary data, not a text document")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ParseError(
            path, _line_of_offset(data, exc.start), f"invalid UTF-8 (byte 0x{data[exc.start]:02x})"
        ) from None
    bom = text.startswith(_BOM)
    if bom:
        text = text[1:]
    control = None
    if data.translate(None, _NOT_C0_OR_DEL) or _C1_ENCODED.search(data):
        control = _CONTROL.search(text)
    if control:
        raise ParseError(
            path,
            _line_of_index(text, control.start()),
            f"control character U+{ord(control.group()):04X}: binary data, not a text document",
        )
    if not text or text.isspace():
        raise ParseError(path, None, "empty document")
    line_endings = _line_endings(data)
    meta = TextMeta(line_endings=line_endings, bom=bom, final_newline=text.endswith(("\n", "\r")))
    if line_endings not in ("lf", "none"):
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if meta.final_newline:
        lines.pop()
    # A line ends in a space or tab only before a line break or at the very end: most documents
    # have none, and their lines need no copy.
    if " \n" in text or "\t\n" in text or text.endswith((" ", "\t")):
        return [line.rstrip(" \t") for line in lines], meta
    return lines, meta
