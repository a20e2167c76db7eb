"""Every Cypher file of paperkg, read by one loader in one header format.

The pipeline's statements live in cypher/ (loaded by file name: `statement("write_papers")`),
the query library in queries/ (paperkg.library), and the benchmark's in bench/. Each file
opens with a `//` header:

    // name: ancestors
    // What the file's Cypher does or answers: one paragraph or more.
    //
    // param paper: paper — the paper whose lineage to follow
    // param depth: integer 1..5 = 2 — how many citation steps to follow
    //
    // column title — the work's title
    //
    // Neo4j Browser:
    // :param paper => '2402.06618';
    // :param depth => 2;

`name` comes first; the description is the prose before the first declaration. Every
`$parameter` the Cypher uses is declared with a `param` line, and every declared one is used.
Types are string, integer, float, boolean, paper and search (a full-text search in Lucene's
syntax, checked by paperkg.search), plus list, map and datetime for the
pipeline's own statements (the library's queries take only what a person types); `lo..hi`
bounds a number (either side may be left open), `{a|b}` lists the values a string may take,
and `= literal` gives the default (no default: required; `= null`: optional). `column` lines
name what a query returns and `:param` lines the values Browser users start from: the library
requires both. After the header come one or more statements, each ending with `;` at the end
of a line.

A library query whose corpus-wide answer takes seconds on a large graph says so with a
`// precomputed` line: `paperkg precompute` stores that answer (its default parameters) in the
graph, and the library reads it from there while it is current (paperkg.run.answers).

A query kept under an older name is an alias: its header holds, instead of declarations and
Cypher, `// alias: claims with status = 'unsupported'` (the query it runs and the parameters
it sets) and `// columns: title, claim_id, …` (the columns it keeps, in order).
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from functools import cache, partial
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, cast

from paperkg.errors import EXIT_FAILED, PaperkgError
from paperkg.package_data import data_folder
from paperkg.search import SearchSyntaxError, search_text


class CypherFileError(PaperkgError):
    """A Cypher file is malformed, or two files define one name; raised when it is loaded."""


class QueryError(PaperkgError, ValueError):
    """A call the library refuses: an unknown query, or a missing, unknown or wrongly typed parameter."""


class SearchError(QueryError):
    """A search text Lucene cannot read, or one that can only find nothing (paperkg.search)."""

    exit_code = EXIT_FAILED  # the call is right, the text is wrong: as for an unknown paper


REQUIRED = inspect.Parameter.empty  # a parameter without a default must be given
INTEGER_RANGE = (-(2**63), 2**63 - 1)  # Neo4j's integers are 64-bit
PYTHON_TYPES: dict[str, type] = {
    "string": str,
    "integer": int,
    "float": float,
    "boolean": bool,
    "paper": str,
    "search": str,  # a full-text search in Lucene's syntax, checked by paperkg.search
}
STATEMENT_TYPES: dict[str, type] = {"list": list, "map": dict, "datetime": datetime}
TYPES = PYTHON_TYPES | STATEMENT_TYPES

IDENTIFIER = r"[a-z_][a-z0-9_]*"
NAME_LINE = re.compile(rf"name: (?P<name>{IDENTIFIER})")
PARAM_LINE = re.compile(
    rf"param (?P<name>{IDENTIFIER}): (?P<type>\w+)"
    r"(?: (?:(?P<low>-?\d+(?:\.\d+)?)?\.\.(?P<high>-?\d+(?:\.\d+)?)?|\{(?P<choices>[^}]+)\}))?"
    r"(?: = (?P<default>.+?))? — (?P<meaning>.+)"
)
COLUMN_LINE = re.compile(rf"column (?P<name>{IDENTIFIER}) — (?P<meaning>.+)")
BROWSER_HEADING = "Neo4j Browser:"
BROWSER_LINE = re.compile(rf":param (?P<name>{IDENTIFIER}) => (?P<value>.+);")
BODY_PARAMETER = re.compile(r"\$(\w+)")
ALIAS_LINE = re.compile(rf"alias: (?P<target>{IDENTIFIER}) with (?P<fixed>.+)")
FIXED_VALUE = re.compile(rf"(?P<name>{IDENTIFIER}) = (?P<value>[^,]+)")
COLUMNS_LINE = re.compile(rf"columns: (?P<names>{IDENTIFIER}(?:, {IDENTIFIER})*)")
PRECOMPUTED_LINE = "precomputed"


# -- parameters --------------------------------------------------------------------------


@dataclass(frozen=True)
class Param:
    name: str
    type: str
    meaning: str
    default: Any = REQUIRED
    minimum: int | float | None = None
    maximum: int | float | None = None
    choices: tuple[str, ...] = ()

    @property
    def required(self) -> bool:
        return self.default is REQUIRED

    @property
    def bounds(self) -> str:
        """`1..5`, `1..` or `` (unbounded), as the header writes them."""
        if self.minimum is None and self.maximum is None:
            return ""
        return f"{'' if self.minimum is None else self.minimum}..{'' if self.maximum is None else self.maximum}"

    @property
    def kind(self) -> str:
        """The type as the docs show it: `integer 1..5`, `string {Premise|Interpretation}`."""
        if self.choices:
            return f"{self.type} {{{'|'.join(self.choices)}}}"
        return f"{self.type} {self.bounds}".strip()

    @property
    def annotation(self) -> Any:
        python_type = TYPES[self.type]
        return python_type | None if self.default is None else python_type

    def describe(self) -> str:
        """`depth (integer 1..5, default 2): meaning`, as Python help shows it."""
        return f"{self.name} ({self.kind}, {self._default_text()}): {self.meaning}"

    def usage(self) -> str:
        """`-p depth=INTEGER (1..5, default 2): meaning`, as `paperkg query --list` shows it."""
        limits = "|".join(self.choices) or self.bounds
        details = f"{limits}, {self._default_text()}" if limits else self._default_text()
        return f"-p {self.name}={self.type.upper()} ({details}): {self.meaning}"

    def _default_text(self) -> str:
        return "required" if self.required else f"default {cypher_literal(self.default)}"

    def check(self, value: Any, query: str) -> Any:
        """`value` if it fits this parameter (an int given for a float becomes a float)."""
        where = f"{query}: parameter '{self.name}'"
        if value is None:
            if self.default is None:
                return None
            raise QueryError(f"{where} needs a value ({self.kind})")
        python_type = TYPES[self.type]
        if python_type is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if not isinstance(value, python_type) or (isinstance(value, bool) and python_type is not bool):
            raise QueryError(f"{where} must be {_article(self.type)} {self.type}, got {short_repr(value)}")
        value = cast(Any, value)  # of the declared type, which isinstance cannot narrow to from a dict
        if self.type == "paper" and not value.strip():
            raise QueryError(f"{where} must name a paper (arXiv id, DOI or paper_id)")
        if self.type == "search":
            try:
                search_text(value)
            except SearchSyntaxError as exc:
                raise SearchError(f"{where}: {exc}") from None
        if self.type == "string" and self.required and not value.strip():
            raise QueryError(f"{where} must not be empty")
        if self.type == "integer" and not INTEGER_RANGE[0] <= value <= INTEGER_RANGE[1]:
            raise QueryError(
                f"{where} must be a 64-bit integer ({INTEGER_RANGE[0]}..{INTEGER_RANGE[1]}), got {short_repr(value)}"
            )
        if self.choices and value not in self.choices:
            raise QueryError(f"{where} must be one of {', '.join(self.choices)}; got {short_repr(value)}")
        if (self.minimum is not None and value < self.minimum) or (self.maximum is not None and value > self.maximum):
            raise QueryError(f"{where} must be in {self.bounds}, got {short_repr(value)}")
        return value

    def parse(self, text: str, query: str) -> Any:
        """A command-line value (`-p depth=3`) converted to this parameter's type."""
        try:
            if self.type == "integer":
                value: Any = int(text)
            elif self.type == "float":
                value = float(text)
            elif self.type == "boolean":
                value = {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}[text.lower()]
            else:
                value = text
        except (ValueError, KeyError):
            raise QueryError(
                f"{query}: parameter '{self.name}' must be {_article(self.type)} {self.type}, got {short_repr(text)}"
            ) from None
        return self.check(value, query)


@dataclass(frozen=True)
class Column:
    name: str
    meaning: str


# -- files -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Alias:
    target: str  # the query it runs
    fixed: dict[str, Any]  # the parameters it sets
    columns: tuple[str, ...]  # the columns it keeps


@dataclass(frozen=True)
class CypherFile:
    name: str
    description: str  # paragraphs separated by a blank line
    params: tuple[Param, ...]
    columns: tuple[Column, ...]
    browser: dict[str, Any]  # the values of the header's `:param` lines, by parameter name
    text: str  # the Cypher after the header, as written (comments kept), without its final `;`
    statements: tuple[str, ...]  # the same Cypher split at `;` line ends, comment lines dropped
    file: str
    alias: Alias | None = None
    precomputed: bool = False  # its default answer may be stored (a `// precomputed` line)


def parse_cypher_file(file: str, source: str, types: Mapping[str, type] = TYPES) -> CypherFile:
    """A Cypher file from its text, its parameters of `types`; CypherFileError names the file
    and line when malformed."""
    lines = source.splitlines()
    header_end = next((i for i, line in enumerate(lines) if not line.startswith("//")), len(lines))
    header = [line[2:].strip() for line in lines[:header_end]]

    def fail(index: int, problem: str) -> CypherFileError:
        return CypherFileError(f"{file}:{index + 1}: {problem}")

    if not header or not (name_match := NAME_LINE.fullmatch(header[0])):
        raise fail(0, "the header must open with `// name: <name>`")
    name = name_match["name"]
    declarations = next((i for i in range(1, len(header)) if _declares(header[i])), len(header))
    paragraphs = "\n".join(header[1:declarations]).strip().split("\n\n")
    description = "\n\n".join(" ".join(p.split("\n")) for p in paragraphs if p.strip())
    if not description:
        raise fail(1, "the description is missing (a paragraph after the name line)")

    params: dict[str, Param] = {}
    columns: dict[str, Column] = {}
    browser: dict[str, Any] = {}
    alias: dict[str, Any] = {}
    precomputed = False
    for index in range(declarations, len(header)):
        line = header[index]
        if not line or line == BROWSER_HEADING:
            continue
        if line == PRECOMPUTED_LINE:
            if precomputed:
                raise fail(index, "`precomputed` is declared twice")
            precomputed = True
            continue
        if match := ALIAS_LINE.fullmatch(line):
            fixed = [FIXED_VALUE.fullmatch(part) for part in match["fixed"].split(", ")]
            if not all(fixed):
                raise fail(index, "an alias sets parameters as `name = literal, …`")
            alias["target"] = match["target"]
            alias["fixed"] = {m["name"]: _literal(m["value"]) for m in fixed if m}
        elif match := COLUMNS_LINE.fullmatch(line):
            alias["columns"] = tuple(match["names"].split(", "))
        elif match := PARAM_LINE.fullmatch(line):
            param = _param(match, name, types, partial(fail, index))
            if param.name in params:
                raise fail(index, f"parameter '{param.name}' is declared twice")
            params[param.name] = param
        elif match := COLUMN_LINE.fullmatch(line):
            if match["name"] in columns:
                raise fail(index, f"column '{match['name']}' is declared twice")
            columns[match["name"]] = Column(match["name"], match["meaning"])
        elif match := BROWSER_LINE.fullmatch(line):
            if match["name"] not in params:
                raise fail(index, f":param line for undeclared parameter '{match['name']}'")
            try:
                browser[match["name"]] = params[match["name"]].check(_literal(match["value"]), name)
            except (CypherFileError, QueryError) as exc:
                raise fail(index, f"bad :param value: {exc}") from None
        else:
            raise fail(index, f"unrecognised header line: {line!r}")

    body = "\n".join(lines[header_end:])
    text = body.strip().rstrip(";").strip()
    if alias:
        if set(alias) != {"target", "fixed", "columns"} or params or columns or browser or text:
            raise fail(1, "an alias is its `alias:` and `columns:` lines alone, without declarations or Cypher")
        return CypherFile(name, description, (), (), {}, "", (), file, Alias(**alias), precomputed)
    if not text:
        raise fail(header_end, "no Cypher after the header")
    used = set(BODY_PARAMETER.findall(_without_comments(text)))
    if undeclared := sorted(used - set(params)):
        raise fail(header_end, f"the Cypher uses undeclared parameters: {', '.join(undeclared)}")
    if unused := sorted(set(params) - used):
        raise fail(header_end, f"declared parameters the Cypher never uses: {', '.join(unused)}")
    return CypherFile(
        name,
        description,
        tuple(params.values()),
        tuple(columns.values()),
        browser,
        text,
        _split(body),
        file,
        precomputed=precomputed,
    )


def read_cypher_file(entry: Traversable | Path) -> CypherFile:
    """The Cypher file at `entry`, parsed and checked."""
    return parse_cypher_file(entry.name, entry.read_text(encoding="utf-8"))


@cache
def cypher_file(name: str) -> CypherFile:
    """cypher/<name>.cypher, the pipeline's statements, loaded once; its header names it `name`."""
    loaded = read_cypher_file(data_folder("cypher") / f"{name}.cypher")
    if loaded.name != name:
        raise CypherFileError(f"{loaded.file}:1: the header names it {loaded.name!r}, not {name!r}")
    return loaded


def statements(name: str) -> tuple[str, ...]:
    """The statements of cypher/<name>.cypher, each without its final `;`."""
    return cypher_file(name).statements


def statement(name: str) -> str:
    """The single statement of cypher/<name>.cypher."""
    found = statements(name)
    if len(found) != 1:
        raise CypherFileError(f"{name}.cypher holds {len(found)} statements, not one")
    return found[0]


def _declares(line: str) -> bool:
    patterns = (PARAM_LINE, COLUMN_LINE, ALIAS_LINE, COLUMNS_LINE)
    return any(pattern.fullmatch(line) for pattern in patterns) or line in (BROWSER_HEADING, PRECOMPUTED_LINE)


def _split(body: str) -> tuple[str, ...]:
    kept = "\n".join(line for line in body.splitlines() if not line.lstrip().startswith("//"))
    return tuple(part.strip().rstrip(";").strip() for part in (kept + "\n").split(";\n") if part.strip().rstrip(";"))


def _param(
    match: re.Match[str], query: str, types: Mapping[str, type], fail: Callable[[str], CypherFileError]
) -> Param:
    kind = match["type"]
    if kind not in types:
        raise fail(f"unknown type {kind!r} (one of {', '.join(types)})")
    if (match["low"] or match["high"]) and kind not in ("integer", "float"):
        raise fail(f"only integer and float parameters take bounds, not {kind}")
    if match["choices"] and kind != "string":
        raise fail(f"only string parameters take a list of values, not {kind}")
    number = int if kind == "integer" else float
    try:
        param = Param(
            name=match["name"],
            type=kind,
            meaning=match["meaning"],
            minimum=number(match["low"]) if match["low"] else None,
            maximum=number(match["high"]) if match["high"] else None,
            choices=tuple(match["choices"].split("|")) if match["choices"] else (),
        )
    except ValueError:
        raise fail(f"bounds of '{match['name']}' must be {kind}s") from None
    if match["default"] is None:
        return param
    try:
        default = _literal(match["default"])
        return replace(param, default=default if default is None else param.check(default, query))
    except (CypherFileError, QueryError) as exc:
        raise fail(f"bad default: {exc}") from None


def _literal(text: str) -> Any:
    """A Cypher literal as header defaults and `:param` lines write it."""
    if text == "null":
        return None
    if text in ("true", "false"):
        return text == "true"
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    if re.fullmatch(r"-?\d+\.\d+", text):
        return float(text)
    if len(text) >= 2 and text[0] == text[-1] == "'" and "'" not in text[1:-1]:
        return text[1:-1]
    raise CypherFileError(f"not a literal: {text!r} (null, true, false, a number or 'text')")


def cypher_literal(value: Any) -> str:
    """`value` as a Cypher literal (`null`, `true`, `2`, `'text'` with quotes escaped)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"
    return str(value)


def short_repr(value: Any) -> str:
    """`value` as a message quotes it: its repr, cut short (an input may be megabytes)."""
    return cut_text(repr(value))


def cut_text(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else f"{text[: limit - 1]}… ({len(text):,} characters)"


def _article(word: str) -> str:
    return "an" if word[0] in "aeiou" else "a"


def _without_comments(cypher: str) -> str:
    return "\n".join(line.split("//", 1)[0] for line in cypher.splitlines())
