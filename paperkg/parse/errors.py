"""The one exception the parsers raise for input they cannot accept."""

from __future__ import annotations

from paperkg.errors import EXIT_FAILED, PaperkgError

# Excerpts of offending text quoted in a reason; a fuzzed 1 MB line must not end up in a message.
_EXCERPT_CHARS = 60


def excerpt(text: str, limit: int = _EXCERPT_CHARS) -> str:
    """A short single-line rendering of `text` for error messages."""
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= limit else flat[:limit] + "…")


class ParseError(PaperkgError):
    """A document was rejected: which file, which line (1-based, or None for the whole file), and why.

    `str(e)` is a single line, `path:line: reason` (`path: reason` when no line applies).
    """

    exit_code = EXIT_FAILED

    def __init__(self, path: str, line: int | None, reason: str) -> None:
        self.path = path
        self.line = line
        self.reason = " ".join(reason.split())
        super().__init__(str(self))

    def __str__(self) -> str:
        if self.line is None:
            return f"{self.path}: {self.reason}"
        return f"{self.path}:{self.line}: {self.reason}"

    def __reduce__(self):
        return (type(self), (self.path, self.line, self.reason))
