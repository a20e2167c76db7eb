"""Cypher statements kept in the package's cypher/ directory, loaded by file name."""

from __future__ import annotations

from functools import cache
from importlib import resources


@cache
def statements(name: str) -> tuple[str, ...]:
    """The statements of cypher/<name>.cypher: `;`-terminated, `//` comment lines dropped."""
    return split_statements((resources.files("paperkg.cypher") / f"{name}.cypher").read_text(encoding="utf-8"))


def split_statements(text: str) -> tuple[str, ...]:
    """The statements of a .cypher file's text, split as `statements` splits the package's own."""
    body = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))
    return tuple(part.strip() for part in body.split(";\n") if part.strip().rstrip(";"))


def statement(name: str) -> str:
    """The single statement of cypher/<name>.cypher."""
    (only,) = statements(name)
    return only.rstrip(";")


class Rows(list):
    """A statement's rows, shown in a log by their number: the driver formats every parameter
    for its debug log even when that log is off (neo4j 6.4, `Bolt5x5.run`)."""

    def __repr__(self) -> str:
        return f"<{len(self)} rows>"
