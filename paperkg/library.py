"""The query library: one named, parameterized Cypher file per question, in queries/.

The same file runs in Neo4j Browser (after its `:param` lines), from Python
(`kb.query("ancestors", paper="2402.06618")` or `kb.queries.ancestors(...)`) and from
`paperkg query`. Each file's header is the format every Cypher file of paperkg has
(paperkg.cypher_files); a query also declares its columns and a `:param` line for each
parameter, holds one statement, and takes only what a person types. A `paper` parameter
accepts what a person would write (arXiv id or URL, DOI, paper_id); the library resolves it
to the paper's `paper_id` before the query runs, and each query also matches an arXiv id, so
Browser users can paste either. Files whose name starts with `_` hold internal statements
(the paper resolver) and are not part of the public library.
"""

from __future__ import annotations

import csv
import difflib
import hashlib
import inspect
import io
import json
import re
import shutil
import textwrap
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from functools import cache
from importlib.resources.abc import Traversable
from typing import Any

from neo4j import RoutingControl
from neo4j.exceptions import ClientError
from neo4j.time import Date, DateTime, Time

from paperkg.cypher_files import (
    PYTHON_TYPES,
    Alias,
    Column,
    CypherFileError,
    Param,
    QueryError,
    SearchError,
    cut_text,
    cypher_literal,
    parse_cypher_file,
    short_repr,
)
from paperkg.errors import EXIT_FAILED, MissingExtra
from paperkg.package_data import data_folder
from paperkg.search import EXAMPLE, lucene_problem, search_text


class UnknownPaper(QueryError):
    """No paper in the graph matches what the user wrote for a `paper` parameter."""

    exit_code = EXIT_FAILED


# A spreadsheet runs a cell that starts with one of these as a formula (`=HYPERLINK(…)`).
FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")
RESOLVER = "_resolve_paper"


# -- queries -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Query:
    name: str
    description: str
    params: tuple[Param, ...]
    columns: tuple[Column, ...]
    browser: Mapping[str, Any]  # the values of the header's `:param` lines, by parameter name
    text: str
    file: str
    alias: Alias | None = None  # an older name of another query, with the parameters it sets
    precomputed: bool = False  # its answer with the default parameters may be stored (paperkg.run.answers)

    @property
    def internal(self) -> bool:
        return self.name.startswith("_")

    def param(self, name: str) -> Param:
        for param in self.params:
            if param.name == name:
                return param
        known = ", ".join(p.name for p in self.params) or "none"
        raise QueryError(f"{self.name} has no parameter '{name}' (its parameters: {known})")

    def bind(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """Every parameter's value: checked, with defaults filled in (papers not yet resolved)."""
        for name in values:
            self.param(name)
        bound = {}
        for param in self.params:
            if param.name in values:
                bound[param.name] = param.check(values[param.name], self.name)
            elif param.required:
                raise QueryError(f"{self.name} needs parameter '{param.name}' ({param.kind}: {param.meaning})")
            else:
                bound[param.name] = param.default
        return bound | (self.alias.fixed if self.alias else {})

    def parse_cli(self, pairs: Sequence[str]) -> dict[str, Any]:
        """`KEY=VALUE` strings from the command line, converted by each parameter's type."""
        values: dict[str, Any] = {}
        for pair in pairs:
            name, sep, text = pair.partition("=")
            if not sep:
                raise QueryError(f"{self.name}: expected KEY=VALUE, got {pair!r}")
            name = name.strip()
            if name in values:
                raise QueryError(f"{self.name}: parameter '{name}' given twice")
            values[name] = self.param(name).parse(text, self.name)
        return values

    def signature(self) -> inspect.Signature:
        params = [
            inspect.Parameter(p.name, inspect.Parameter.KEYWORD_ONLY, default=p.default, annotation=p.annotation)
            for p in self.params
        ]
        return inspect.Signature(params, return_annotation=Result)

    def help(self) -> str:
        """The header as documentation: description, parameters and columns."""
        lines = [textwrap.fill(self.description, 88), ""]
        if self.alias:
            fixed = ", ".join(f"{name} = {cypher_literal(value)}" for name, value in self.alias.fixed.items())
            lines += [f"Runs `{self.alias.target}` with {fixed}.", ""]
        lines += ["Parameters:"]
        lines += [textwrap.fill(p.describe(), 88, initial_indent="  ", subsequent_indent="      ") for p in self.params]
        lines += ["", "Columns:"]
        lines += [
            textwrap.fill(f"{c.name}: {c.meaning}", 88, initial_indent="  ", subsequent_indent="      ")
            for c in self.columns
        ]
        lines += ["", "Returns a Result: a list of row dicts (.to_df() gives a pandas DataFrame)."]
        if self.precomputed:
            lines += [
                "With the default parameters it reads the answer `paperkg precompute` stored, while that",
                "answer is current (Result.precomputed_at says when it was computed).",
            ]
        return "\n".join(lines)


def parse_query(file: str, source: str) -> Query:
    """A query from the text of its file; CypherFileError names the file and line when malformed."""
    parsed = parse_cypher_file(file, source, PYTHON_TYPES)  # what a person types, no lists or maps

    def fail(problem: str) -> CypherFileError:
        return CypherFileError(f"{file}: {problem}")

    if parsed.alias:  # completed from its target when the library loads
        return Query(parsed.name, parsed.description, (), (), {}, "", parsed.file, parsed.alias, parsed.precomputed)

    if len(parsed.statements) != 1:
        raise fail(f"a query is one statement, not {len(parsed.statements)}")
    if not parsed.columns:
        raise fail("the header declares no columns")
    if missing := [p.name for p in parsed.params if p.name not in parsed.browser]:
        raise fail(f"no `:param` line for {', '.join(missing)}")
    if parsed.precomputed and (required := [p.name for p in parsed.params if p.required]):
        raise fail(f"a precomputed query answers with its defaults, but {', '.join(required)} has none")
    return Query(
        parsed.name,
        parsed.description,
        parsed.params,
        parsed.columns,
        parsed.browser,
        parsed.text,
        parsed.file,
        precomputed=parsed.precomputed,
    )


# -- papers as people write them ---------------------------------------------------------


def paper_keys(text: str) -> dict[str, str | None]:
    """The ways `text` may name a paper, as the resolver's parameters: the text itself (a
    paper_id), an arXiv id (version dropped; `10.48550/arXiv.<id>` is one) and a lowercase DOI,
    read by the documents' grammar (paperkg.parse.identifiers)."""
    from paperkg.parse.identifiers import ARXIV_DOI_PREFIX, normalise_arxiv_id, normalise_doi

    text = text.strip()
    doi = normalise_doi(text)
    arxiv_id = normalise_arxiv_id(text) or (
        normalise_arxiv_id(doi) if doi and doi.startswith(ARXIV_DOI_PREFIX) else None
    )
    return {"text": text, "arxiv_id": arxiv_id, "doi": doi}


# -- results -----------------------------------------------------------------------------


class Result(list):
    """A query's rows as dicts, in the query's order; `columns` names them even when there are none.
    `precomputed_at` is when a stored answer was computed (paperkg.run.answers), None when the query ran."""

    def __init__(self, rows: Sequence[dict[str, Any]], columns: Sequence[str], precomputed_at: datetime | None = None):
        super().__init__(rows)
        self.columns = tuple(columns)
        self.precomputed_at = precomputed_at

    def to_df(self):
        """The rows as a pandas DataFrame (pandas is the optional `paperkg[pandas]` extra)."""
        try:
            import pandas
        except ImportError:
            raise MissingExtra("Result.to_df() needs pandas: pip install 'paperkg[pandas]'") from None
        return pandas.DataFrame(list(self), columns=list(self.columns))

    def to_json(self) -> str:
        """A JSON array of row objects; temporal values as ISO 8601 strings."""
        return json.dumps(list(self), indent=2, ensure_ascii=False, default=_iso)

    def to_csv(self) -> str:
        """CSV with a header row; lists and maps as JSON, null as an empty cell."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(self.columns)
        writer.writerows([_csv_cell(row[column]) for column in self.columns] for row in self)
        return out.getvalue()

    def to_table(self, width: int | None = None) -> str:
        """An aligned text table that fits `width` columns (default: the terminal's). Where the
        natural widths do not fit, the widest text columns narrow and their cells wrap, up to
        MAX_CELL_LINES lines, the last cut with `…`; then headings wrap after their underscores.
        Numbers and identifiers (cells without spaces) are never cut, so that they can be copied
        whole: a table that cannot fit without cutting one is wider than `width`. An untitled
        work shows its identifier."""
        width = width or shutil.get_terminal_size((100, 24)).columns
        cells = [[_cell(_titled(row, column)) for column in self.columns] for row in self]
        numeric = [
            any(_is_number(row[c]) for row in self) and all(_is_number(row[c]) or row[c] is None for row in self)
            for c in self.columns
        ]
        values = [max([len(row[i]) for row in cells], default=0) for i in range(len(self.columns))]
        natural = [max(len(column), value) for column, value in zip(self.columns, values)]
        heading = [max(map(len, _heading_parts(column))) for column in self.columns]
        prose = [not num and any(" " in row[i] for row in cells) for i, num in enumerate(numeric)]
        longest_word = [
            max([len(word) for row in cells for word in row[i].split()], default=0) for i in range(len(self.columns))
        ]
        # Prose narrows first, to no less than its heading and its longest word (within
        # MIN_TEXT_WIDTH..MAX_WORD_WIDTH); then the headings of the other columns wrap.
        narrowest = [
            min(n, max(len(column), MIN_TEXT_WIDTH, min(word, MAX_WORD_WIDTH))) if p else max(h, value)
            for column, p, n, word, h, value in zip(self.columns, prose, natural, longest_word, heading, values)
        ]
        widths = _fit(
            _fit(natural, [m if p else n for m, p, n in zip(narrowest, prose, natural)], width), narrowest, width
        )

        def lines(texts: Sequence[str], wrap: Callable[[str, int], list[str]] = _wrap) -> list[str]:
            wrapped = [wrap(text, w) for text, w in zip(texts, widths)]
            return [
                "  ".join(
                    (part[i] if i < len(part) else "").rjust(w) if num else (part[i] if i < len(part) else "").ljust(w)
                    for part, w, num in zip(wrapped, widths, numeric)
                ).rstrip()
                for i in range(max(map(len, wrapped), default=1))
            ]

        body = [lines(row) for row in cells]
        spaced = any(len(row) > 1 for row in body)  # rows of several lines are told apart by a blank one
        out = lines(self.columns, _wrap_heading) + lines(["-" * w for w in widths])
        for index, row in enumerate(body):
            out += ([""] if spaced and index else []) + row
        out.append(f"({len(self)} row{'' if len(self) == 1 else 's'})")
        return "\n".join(out)

    def render(self, fmt: str) -> str:
        """The rows as `table`, `json` or `csv` text."""
        renderers = {"table": self.to_table, "json": self.to_json, "csv": self.to_csv}
        if fmt not in renderers:
            raise QueryError(f"unknown format {fmt!r} (one of {', '.join(renderers)})")
        return renderers[fmt]().rstrip("\n")


def _plain(value: Any) -> Any:
    """Driver values as plain Python: neo4j.time dates and times become datetime objects."""
    if isinstance(value, (Date, DateTime, Time)):
        return value.to_native()
    if isinstance(value, list):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    return value


def _iso(value: Any) -> str:
    if hasattr(value, "isoformat"):
        return value.isoformat()
    if hasattr(value, "iso_format"):  # neo4j.time.Duration
        return value.iso_format()
    raise TypeError(f"cannot write {type(value).__name__} as JSON")


def _cell(value: Any) -> str:
    """A value as CSV and table cells show it."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False, default=_iso)
    if hasattr(value, "isoformat") or hasattr(value, "iso_format"):
        return _iso(value)
    return str(value)


MIN_TEXT_WIDTH = 12  # a text column narrows to no less than this (or its heading)
MAX_WORD_WIDTH = 20  # nor below its longest word, up to this long
MAX_CELL_LINES = 4
TITLE_COLUMNS = re.compile(r"(?P<kind>title|work)(?P<suffix>_[ab])?")


def _titled(row: Mapping[str, Any], column: str) -> Any:
    """The cell's value; for an untitled work's title, the identifier its row gives instead."""
    value = row[column]
    match = TITLE_COLUMNS.fullmatch(column)
    if value is not None or match is None:
        return value
    suffix = match["suffix"] or ""
    for key, label in (("arxiv_id", "arXiv "), ("doi", "doi:"), ("paper_id", "")):
        if row.get(key + suffix):
            return f"({label}{row[key + suffix]})"
    return None


def _fit(natural: list[int], minimum: list[int], width: int) -> list[int]:
    """Column widths whose sum with two-space gaps is at most `width`, narrowing the widest
    column first and none below its minimum (they may still overflow: every column at its minimum)."""
    widths = list(natural)
    excess = sum(widths) + 2 * (len(widths) - 1) - width
    while excess > 0:
        room = [w - m for w, m in zip(widths, minimum)]
        widest = max(range(len(widths)), key=lambda i: (room[i] > 0, widths[i]))
        if room[widest] <= 0:
            break
        widths[widest] -= 1
        excess -= 1
    return widths


def _wrap(text: str, width: int) -> list[str]:
    """A cell as lines of `width`: wrapped at spaces (or inside a long word), at most MAX_CELL_LINES."""
    if len(text) <= width:
        return [text]
    parts = textwrap.wrap(text, width, break_on_hyphens=False) or [""]
    if len(parts) > MAX_CELL_LINES:
        parts = parts[:MAX_CELL_LINES]
        parts[-1] = parts[-1][: width - 1] + "…"
    return parts


def _heading_parts(column: str) -> list[str]:
    """A heading's pieces, each ending with its underscore: where it may wrap."""
    return re.findall(r"[^_]*_+|[^_]+$", column) or [column]


def _wrap_heading(column: str, width: int) -> list[str]:
    """A heading as lines of `width`, wrapped after underscores only."""
    lines = [""]
    for part in _heading_parts(column):
        if lines[-1] and len(lines[-1]) + len(part) > width:
            lines.append("")
        lines[-1] += part
    return lines


def _csv_cell(value: Any) -> str:
    """A CSV cell that a spreadsheet shows as text: a string that would start a formula gets a
    leading `'` (numbers stay numbers)."""
    text = _cell(value)
    return "'" + text if isinstance(value, str) and text.startswith(FORMULA_PREFIXES) else text


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


# -- the library -------------------------------------------------------------------------


def fingerprint(query: Query, values: dict[str, Any]) -> str:
    """What a stored answer was computed by: the query's Cypher, its columns and the values."""
    text = json.dumps([query.text, [c.name for c in query.columns], values], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def stored_answer(kb: Any, query: Query, values: dict[str, Any]) -> Result | None:
    """The stored answer of `query` with `values`, when one is current; else None."""
    rows = kb.read("stored_answer", query=query.name, fingerprint=fingerprint(query, values))
    if not rows:
        return None
    row = rows[0]
    return Result(json.loads(row["rows"]), row["columns"], row["computed_at"].to_native())


class Library:
    """The public queries by name, plus the internal paper resolver."""

    def __init__(self, queries: Sequence[Query]):
        queries = [_aliased(q, {t.name: t for t in queries}) if q.alias else q for q in queries]
        self._public = {q.name: q for q in queries if not q.internal}
        self._internal = {q.name: q for q in queries if q.internal}
        if any(p.type == "paper" for q in self._public.values() for p in q.params) and RESOLVER not in self._internal:
            raise CypherFileError(f"queries take papers but {RESOLVER}.cypher is missing")

    def __iter__(self) -> Iterator[Query]:
        return iter(self._public.values())

    @property
    def every_query(self) -> list[Query]:
        """Every loaded query, the internal ones included, for checks that cover every file."""
        return [*self._public.values(), *self._internal.values()]

    def __len__(self) -> int:
        return len(self._public)

    def __contains__(self, name: object) -> bool:
        return name in self._public

    @property
    def names(self) -> list[str]:
        return list(self._public)

    def get(self, name: str) -> Query:
        if name in self._public:
            return self._public[name]
        close = difflib.get_close_matches(name, self._public, n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else " (list them with `paperkg query --list`)"
        raise QueryError(f"no query named {name!r}{hint}")

    def run(self, kb: Any, name: str, /, **params: Any) -> Result:
        """Run query `name` on `kb` (anything with `.driver` and `.database`) with READ routing."""
        query = self.get(name)
        values = query.bind(params)
        for param in query.params:
            if param.type == "paper" and values[param.name] is not None:
                values[param.name] = self.resolve_paper(kb, values[param.name])
            if param.type == "search":
                values[param.name] = search_text(values[param.name])
        if query.precomputed and values == query.bind({}) and (answer := stored_answer(kb, query, values)) is not None:
            return answer
        return self.execute(kb, query, values)

    def resolve_paper(self, kb: Any, text: str) -> str:
        """The paper_id of the paper `text` names (arXiv id or URL, DOI, paper_id), or UnknownPaper."""
        keys = paper_keys(text)
        rows = self.execute(kb, self._internal[RESOLVER], keys)
        if not rows:
            tried = ["paper_id"] + [f"{kind} {keys[kind]}" for kind in ("arxiv_id", "doi") if keys[kind]]
            raise UnknownPaper(
                f"no paper matches {short_repr(text.strip())} (looked up as {cut_text(', '.join(tried))}); "
                "give an arXiv id, a DOI or a paper_id of an ingested paper"
            )
        return rows[0]["paper_id"]

    def execute(self, kb: Any, query: Query, values: Mapping[str, Any]) -> Result:
        """Run `query` itself with bound values (papers resolved), never a stored answer."""
        try:
            records, _, keys = kb.driver.execute_query(
                query.text, values, database_=kb.database, routing_=RoutingControl.READ
            )
        except ClientError as exc:
            searched = [p.name for p in query.params if p.type == "search"]
            if searched and (problem := lucene_problem(exc.message or "")):
                # What paperkg.search let through and Lucene still refused (`root~2.5`).
                raise SearchError(
                    f"{query.name}: parameter '{searched[0]}': Lucene cannot read "
                    f"{short_repr(values[searched[0]])}: {cut_text(problem)} ({EXAMPLE})"
                ) from None
            raise
        if query.alias:
            keys = list(query.alias.columns)
        return Result([_plain(record.data(*keys)) for record in records], keys)

    def functions(self, kb: Any) -> Queries:
        """The queries as functions that run on `kb`."""
        return Queries(self, kb)

    def describe(self) -> str:
        """Every query's name, description and parameters, for `paperkg query --list`."""
        blocks = []
        for query in self:
            lines = [query.name, textwrap.fill(query.description, 88, initial_indent="  ", subsequent_indent="  ")]
            lines += [
                textwrap.fill(p.usage(), 88, initial_indent="    ", subsequent_indent="        ") for p in query.params
            ]
            blocks.append("\n".join(lines))
        return "\n\n".join(blocks)


class Queries:
    """The library's queries as functions bound to one knowledge base: `kb.queries.ancestors(paper=...)`."""

    def __init__(self, library: Library, kb: Any):
        self._names = library.names
        for query in library:
            setattr(self, query.name, _function(library, query, kb))

    def __repr__(self) -> str:
        return f"<queries: {', '.join(self._names)}>"


def _function(library: Library, query: Query, kb: Any) -> Callable[..., Result]:
    def run(**params: Any) -> Result:
        return library.run(kb, query.name, **params)

    run.__name__ = run.__qualname__ = query.name
    run.__doc__ = query.help()
    run.__signature__ = query.signature()  # type: ignore[attr-defined]  # inspect reads it; no stub declares it
    return run


def _aliased(alias: Query, queries: Mapping[str, Query]) -> Query:
    """An alias completed from the query it runs: that query's Cypher, its parameters but the
    ones the alias sets, and the columns the alias keeps."""
    assert alias.alias
    target = queries.get(alias.alias.target)
    if target is None or target.alias or target.internal:
        raise CypherFileError(f"{alias.file}: an alias runs a public query, not {alias.alias.target!r}")
    for name, value in alias.alias.fixed.items():
        target.param(name).check(value, alias.name)
    known = {c.name: c for c in target.columns}
    if unknown := [name for name in alias.alias.columns if name not in known]:
        raise CypherFileError(f"{alias.file}: {target.name} has no column {', '.join(unknown)}")
    return replace(
        alias,
        params=tuple(p for p in target.params if p.name not in alias.alias.fixed),
        columns=tuple(known[name] for name in alias.alias.columns),
        browser={name: alias.alias.fixed.get(name, value) for name, value in target.browser.items()},
        text=target.text,
    )


def load_library(directory: Traversable | None = None) -> Library:
    """Every `*.cypher` file in `directory` (default: the package's queries/, never the working
    directory), parsed and checked; CypherFileError on a malformed file or a duplicate name."""
    directory = directory if directory is not None else data_folder("queries")
    queries: dict[str, Query] = {}
    for entry in sorted(directory.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".cypher"):
            continue
        query = parse_query(entry.name, entry.read_text(encoding="utf-8"))
        if query.name in queries:
            raise CypherFileError(f"two queries are named {query.name!r}: {queries[query.name].file} and {entry.name}")
        queries[query.name] = query
    return Library(list(queries.values()))


@cache
def library() -> Library:
    """The package's query library, loaded once."""
    return load_library()
