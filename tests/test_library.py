"""The query registry: loading and checking queries/*.cypher, parameters, paper resolution,
read-only execution, results, the notebook API and `paperkg query`."""

from __future__ import annotations

import csv
import inspect
import io
import json
import pydoc
import re
from datetime import date
from pathlib import Path

import pytest
from neo4j import RoutingControl
from neo4j.exceptions import ClientError

from paperkg.cli import main
from paperkg.library import CypherFileError, QueryError, Result, UnknownPaper, library, load_library, paper_keys
from paperkg.load.schema import apply_schema
from paperkg.readonly import ReadOnlyViolation

LIBRARY = library()
QUERY_FILES = sorted((Path(__file__).parents[1] / "queries").glob("*.cypher"))
EVERY_QUERY = {q.file: q for q in LIBRARY.every_query}

COUNTING = """// name: counting
// Counts papers, so the tests can see how the loader reads a header and its parameters.
//
// param limit: integer 1.. = 10 — the most rows to return
//
// column n — how many papers there are
//
// Neo4j Browser:
// :param limit => 10;

MATCH (p:Paper) RETURN count(p) AS n LIMIT $limit
"""

# Invented papers, each known by a different kind of id.
PAPERS = """
CREATE (:Paper {paper_id: 'arxiv:2106.00007', arxiv_id: '2106.00007', title: 'Eta Graphs', year: 2021,
                first_posted: date('2021-06-01')}),
       (:Paper {paper_id: 'doi:10.5555/zeta.2020', doi: '10.5555/zeta.2020', title: 'Zeta Frameworks', year: 2020}),
       (:Paper {paper_id: 'title:7e1a9c', title: 'Theta Heuristics', year: 2022}),
       (:Paper {paper_id: 'arxiv:hep-th/9901001', arxiv_id: 'hep-th/9901001', title: 'Mu Monopoles', year: 1999})
"""


@pytest.fixture
def papers(kb):
    kb.execute(PAPERS)
    apply_schema(kb)  # derives the title_lower find_papers searches
    return kb


def write_library(directory: Path, **files: str) -> Path:
    for name, text in files.items():
        (directory / f"{name}.cypher").write_text(text, encoding="utf-8")
    return directory


# -- loading -----------------------------------------------------------------------------


def test_library_loads_from_the_package_not_the_working_directory(tmp_path, monkeypatch):
    (tmp_path / "queries").mkdir()
    write_library(tmp_path / "queries", broken="// nothing")
    monkeypatch.chdir(tmp_path)
    assert (
        load_library().names
        == LIBRARY.names
        == sorted(path.stem for path in QUERY_FILES if not path.stem.startswith("_"))
    )


def test_internal_queries_are_not_public():
    assert "_resolve_paper" not in LIBRARY
    with pytest.raises(QueryError, match="no query named '_resolve_paper'"):
        LIBRARY.get("_resolve_paper")


def test_a_loaded_query_keeps_its_header(tmp_path):
    (query,) = load_library(write_library(tmp_path, counting=COUNTING))
    assert (query.name, query.description, query.columns[0].name, dict(query.browser)) == (
        "counting",
        "Counts papers, so the tests can see how the loader reads a header and its parameters.",
        "n",
        {"limit": 10},
    )
    assert (query.params[0].minimum, query.params[0].maximum, query.params[0].default) == (1, None, 10)
    assert query.text == "MATCH (p:Paper) RETURN count(p) AS n LIMIT $limit"


def test_duplicate_names_are_rejected(tmp_path):
    write_library(tmp_path, first=COUNTING, second=COUNTING)
    with pytest.raises(
        CypherFileError, match=re.escape("two queries are named 'counting': first.cypher and second.cypher")
    ):
        load_library(tmp_path)


@pytest.mark.parametrize(
    ("old", "new", "problem"),
    [
        ("// name: counting\n", "", "q.cypher:1: the header must open with `// name: <name>`"),
        (
            "// Counts papers, so the tests can see how the loader reads a header and its parameters.\n",
            "",
            "q.cypher:2: the description is missing",
        ),
        ("limit: integer 1.. = 10", "limit: number = 10", "q.cypher:4: unknown type 'number'"),
        ("limit: integer 1.. = 10", "limit: integer 1.. = ten", "q.cypher:4: bad default: not a literal: 'ten'"),
        (
            "limit: integer 1.. = 10",
            "limit: integer 1.. = 0",
            "q.cypher:4: bad default: counting: parameter 'limit' must be in 1.., got 0",
        ),
        (
            "limit: integer 1.. = 10",
            "limit: string 1.. = 10",
            "q.cypher:4: only integer and float parameters take bounds",
        ),
        ("limit: integer 1.. = 10", "limit: integer {a|b} = 10", "q.cypher:4: only string parameters take a list"),
        (
            "// param limit",
            "// param limit: integer = 1 — again\n// param limit",
            "q.cypher:5: parameter 'limit' is declared twice",
        ),
        ("// :param limit => 10;\n", "", "no `:param` line for limit"),
        (
            "// :param limit => 10;",
            "// :param limit => 10;\n// :param depth => 2;",
            "q.cypher:10: :param line for undeclared parameter 'depth'",
        ),
        (
            "// :param limit => 10;",
            "// :param limit => 'ten';",
            "q.cypher:9: bad :param value: counting: parameter 'limit' must be an integer, got 'ten'",
        ),
        ("LIMIT $limit", "LIMIT $limit + $depth", "the Cypher uses undeclared parameters: depth"),
        (
            "LIMIT $limit",
            "LIMIT 5 // $limit in a comment is not a use",
            "declared parameters the Cypher never uses: limit",
        ),
        ("// column n — how many papers there are\n", "", "the header declares no columns"),
        ("MATCH (p:Paper) RETURN count(p) AS n LIMIT $limit\n", "", "q.cypher:10: no Cypher after the header"),
        (
            "LIMIT $limit\n",
            "LIMIT $limit;\nMATCH (p:Paper) RETURN p;\n",
            "q.cypher: a query is one statement, not 2",
        ),
        (
            "limit: integer 1.. = 10 — the most",
            "limit: list — the most",
            "q.cypher:4: unknown type 'list' (one of string, integer, float, boolean, paper, search)",
        ),
        ("// column n", "// returns: n\n// column n", "q.cypher:6: unrecognised header line: 'returns: n'"),
    ],
)
def test_malformed_headers_are_rejected_naming_file_and_line(tmp_path, old, new, problem):
    assert old in COUNTING
    write_library(tmp_path, q=COUNTING.replace(old, new, 1))
    with pytest.raises(CypherFileError) as error:
        load_library(tmp_path)
    assert problem in str(error.value)


ALIAS = """// name: tally
// Counts papers under an older name, so the tests can see how the loader reads an alias.
//
// alias: counting with limit = 3
// columns: n
"""


@pytest.mark.parametrize(
    ("old", "new", "problem"),
    [
        ("counting with", "missing with", "q2.cypher: an alias runs a public query, not 'missing'"),
        ("columns: n", "columns: n, m", "q2.cypher: counting has no column m"),
        ("limit = 3", "limit = 0", "tally: parameter 'limit' must be in 1.., got 0"),
        ("// columns: n\n", "", "q2.cypher:2: an alias is its `alias:` and `columns:` lines alone"),
        ("// columns: n\n", "// columns: n\nMATCH (p) RETURN p\n", "q2.cypher:2: an alias is its"),
    ],
)
def test_a_malformed_alias_is_rejected(tmp_path, old, new, problem):
    assert old in ALIAS
    write_library(tmp_path, q=COUNTING, q2=ALIAS.replace(old, new, 1))
    with pytest.raises((CypherFileError, QueryError)) as error:
        load_library(tmp_path)
    assert problem in str(error.value)


def test_an_alias_runs_its_query_with_the_parameters_it_sets(tmp_path, papers):
    aliased = load_library(write_library(tmp_path, q=COUNTING, q2=ALIAS.replace("limit = 3", "limit = 1")))
    tally = aliased.get("tally")
    assert [p.name for p in tally.params] == [] and tally.bind({}) == {"limit": 1}
    assert aliased.run(papers, "tally") == [{"n": 4}]
    assert "Runs `counting` with limit = 1." in tally.help()


def test_queries_taking_papers_need_the_resolver(tmp_path):
    takes_paper = (
        COUNTING.replace("param limit: integer 1.. = 10", "param limit: paper")
        .replace(":param limit => 10", ":param limit => 'x'")
        .replace("LIMIT $limit", "WHERE $limit IS NOT NULL")
    )
    with pytest.raises(CypherFileError, match=re.escape("queries take papers but _resolve_paper.cypher is missing")):
        load_library(write_library(tmp_path, q=takes_paper))


# -- parameters --------------------------------------------------------------------------


def test_defaults_fill_in_what_is_not_given():
    assert LIBRARY.get("ancestors").bind({"paper": "2005.00719"}) == {
        "paper": "2005.00719",
        "depth": 2,
        "since": None,
        "until": None,
        "limit": 100,
    }
    # An alias binds the parameters it sets beside the caller's.
    assert LIBRARY.get("unsupported_claims").bind({}) == {
        "status": "unsupported",
        "paper": None,
        "kind": None,
        "substantial_only": False,
        "limit": 100,
    }


@pytest.mark.parametrize(
    ("name", "params", "message"),
    [
        ("ancestors", {}, "ancestors needs parameter 'paper' (paper: the paper whose lineage to follow"),
        (
            "ancestors",
            {"paper": "x", "dept": 2},
            "ancestors has no parameter 'dept' (its parameters: paper, depth, since, until, limit)",
        ),
        ("ancestors", {"paper": "x", "depth": "3"}, "ancestors: parameter 'depth' must be an integer, got '3'"),
        ("ancestors", {"paper": "x", "depth": True}, "ancestors: parameter 'depth' must be an integer, got True"),
        ("ancestors", {"paper": "x", "depth": 2.0}, "ancestors: parameter 'depth' must be an integer, got 2.0"),
        ("ancestors", {"paper": "x", "depth": 6}, "ancestors: parameter 'depth' must be in 1..5, got 6"),
        ("ancestors", {"paper": "x", "limit": 0}, "ancestors: parameter 'limit' must be in 1.., got 0"),
        ("ancestors", {"paper": 2005.00719}, "ancestors: parameter 'paper' must be a paper, got 2005.00719"),
        ("ancestors", {"paper": " "}, "ancestors: parameter 'paper' must name a paper"),
        ("ancestors", {"paper": None}, "ancestors: parameter 'paper' needs a value (paper)"),
        (
            "unsupported_claims",
            {"kind": "premise"},
            "unsupported_claims: parameter 'kind' must be one of Premise, Interpretation; got 'premise'",
        ),
        (
            "unsupported_claims",
            {"substantial_only": "yes"},
            "unsupported_claims: parameter 'substantial_only' must be a boolean, got 'yes'",
        ),
        (
            "unsupported_claims",
            {"substantial_only": 1},
            "unsupported_claims: parameter 'substantial_only' must be a boolean, got 1",
        ),
    ],
)
def test_bad_calls_fail_before_running_naming_the_parameter(name, params, message):
    with pytest.raises(QueryError) as error:
        LIBRARY.run(None, name, **params)  # no knowledge base: nothing may reach Neo4j
    assert str(error.value).startswith(message)


def test_an_unknown_query_suggests_a_near_name():
    with pytest.raises(QueryError, match=re.escape("no query named 'ancestor' (did you mean 'ancestors'?)")):
        LIBRARY.get("ancestor")


def test_float_parameters_take_integers_as_floats(tmp_path):
    ratio = (
        COUNTING.replace("limit: integer 1.. = 10", "ratio: float 0..1 = 0.5")
        .replace(":param limit => 10", ":param ratio => 0.5")
        .replace("LIMIT $limit", "WHERE rand() < $ratio")
    )
    (query,) = load_library(write_library(tmp_path, q=ratio))
    assert query.bind({"ratio": 1}) == {"ratio": 1.0} and isinstance(query.bind({"ratio": 1})["ratio"], float)
    assert query.parse_cli(["ratio=0.25"]) == {"ratio": 0.25}
    with pytest.raises(QueryError, match=re.escape("parameter 'ratio' must be in 0.0..1.0, got 2.0")):
        query.bind({"ratio": 2})


def test_command_line_values_are_converted_by_type():
    assert LIBRARY.get("ancestors").parse_cli(["paper=2005.00719", "depth=3"]) == {"paper": "2005.00719", "depth": 3}
    assert LIBRARY.get("unsupported_claims").parse_cli(["substantial_only=yes", "kind=Premise"]) == {
        "substantial_only": True,
        "kind": "Premise",
    }
    assert LIBRARY.get("find_papers").parse_cli(["text=a=b"]) == {"text": "a=b"}


@pytest.mark.parametrize(
    ("text", "value"),
    [("true", True), ("True", True), ("yes", True), ("1", True), ("false", False), ("NO", False), ("0", False)],
)
def test_command_line_booleans(text, value):
    assert LIBRARY.get("uncited_claims").parse_cli([f"substantial_only={text}"]) == {"substantial_only": value}


@pytest.mark.parametrize(
    ("pairs", "message"),
    [
        (["depth=three"], "ancestors: parameter 'depth' must be an integer, got 'three'"),
        (["depth"], "ancestors: expected KEY=VALUE, got 'depth'"),
        (["depth=1", "depth=2"], "ancestors: parameter 'depth' given twice"),
        (["dept=1"], "ancestors has no parameter 'dept'"),
    ],
)
def test_command_line_values_refused(pairs, message):
    with pytest.raises(QueryError) as error:
        LIBRARY.get("ancestors").parse_cli(pairs)
    assert str(error.value).startswith(message)


# -- papers as people write them ---------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "keys"),
    [
        ("2106.00007", ("2106.00007", None)),
        ("arXiv:2106.00007v3", ("2106.00007", None)),
        ("https://arxiv.org/pdf/2106.00007v1.pdf", ("2106.00007", None)),
        ("10.48550/arXiv.2106.00007", ("2106.00007", "10.48550/arxiv.2106.00007")),
        ("hep-th/9901001v2", ("hep-th/9901001", None)),
        ("DOI: 10.5555/Zeta.2020", (None, "10.5555/zeta.2020")),
        ("title:7e1a9c", (None, None)),
    ],
)
def test_paper_keys(text, keys):
    assert paper_keys(text) == {"text": text, "arxiv_id": keys[0], "doi": keys[1]}


@pytest.mark.parametrize(
    "text",
    [
        "2106.00007",
        " 2106.00007 ",
        "2106.00007v3",
        "arxiv:2106.00007",
        "arXiv:2106.00007",
        "ARXIV: 2106.00007",
        "https://arxiv.org/abs/2106.00007",
        "http://arxiv.org/abs/2106.00007v2",
        "arxiv.org/abs/2106.00007",
        "https://arxiv.org/pdf/2106.00007v1.pdf",
        "10.48550/arXiv.2106.00007",
        "doi:10.48550/ARXIV.2106.00007",
        "https://doi.org/10.48550/arXiv.2106.00007",
    ],
)
def test_an_arxiv_paper_written_any_way_resolves(papers, text):
    assert LIBRARY.resolve_paper(papers, text) == "arxiv:2106.00007"


@pytest.mark.parametrize(
    ("text", "paper_id"),
    [
        ("10.5555/zeta.2020", "doi:10.5555/zeta.2020"),
        ("10.5555/ZETA.2020", "doi:10.5555/zeta.2020"),
        ("doi:10.5555/Zeta.2020", "doi:10.5555/zeta.2020"),
        ("DOI: 10.5555/zeta.2020", "doi:10.5555/zeta.2020"),
        ("https://doi.org/10.5555/zeta.2020", "doi:10.5555/zeta.2020"),
        ("https://dx.doi.org/10.5555/ZETA.2020", "doi:10.5555/zeta.2020"),
        ("title:7e1a9c", "title:7e1a9c"),
        ("hep-th/9901001", "arxiv:hep-th/9901001"),
        ("arXiv:hep-th/9901001v1", "arxiv:hep-th/9901001"),
        ("https://arxiv.org/abs/hep-th/9901001", "arxiv:hep-th/9901001"),
    ],
)
def test_a_doi_or_paper_id_resolves(papers, text, paper_id):
    assert LIBRARY.resolve_paper(papers, text) == paper_id


def test_an_unknown_paper_is_a_clear_error(papers):
    with pytest.raises(UnknownPaper) as error:
        papers.query("ancestors", paper="arXiv:9999.99999")
    assert str(error.value) == (
        "no paper matches 'arXiv:9999.99999' (looked up as paper_id, arxiv_id 9999.99999); "
        "give an arXiv id, a DOI or a paper_id of an ingested paper"
    )


INJECTION = "'}) DETACH DELETE n //"


def test_values_that_look_like_cypher_are_data(papers, capsys):
    before = papers.stats()
    with pytest.raises(UnknownPaper, match=re.escape(INJECTION)):
        papers.query("ancestors", paper=INJECTION)
    assert papers.query("find_papers", text=INJECTION) == []
    assert papers.query("find_papers", text="x' OR 1=1 //") == []
    assert papers.cypher("MATCH (p:Paper) WHERE p.title = $title RETURN p.title", title=INJECTION) == []
    assert main(["query", "find_papers", "-p", f"text={INJECTION}", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out) == []
    assert papers.stats() == before and before["nodes"]["Paper"] == 4


@pytest.mark.parametrize(
    "statement",
    [
        "CREATE (:Paper {paper_id: 'sneaked in'})",
        "MATCH (n) DETACH DELETE n",
        "MATCH (p:Paper) SET p.title = 'changed'",
    ],
)
def test_ad_hoc_cypher_refuses_writes_and_changes_nothing(papers, statement):
    before = papers.cypher("MATCH (p:Paper) RETURN p.paper_id AS id, p.title AS title ORDER BY id")
    with pytest.raises(ReadOnlyViolation) as error:
        papers.cypher(statement)
    assert str(error.value) == "kb.cypher() only reads the graph and refuses writes (kb.execute() writes)"
    assert papers.cypher("MATCH (p:Paper) RETURN p.paper_id AS id, p.title AS title ORDER BY id") == before


def test_library_queries_run_with_read_access(tmp_path, papers):
    writing = COUNTING.replace(
        "MATCH (p:Paper) RETURN count(p) AS n LIMIT $limit",
        "CREATE (p:Paper {paper_id: 'written'}) RETURN count(p) AS n LIMIT $limit",
    )
    with pytest.raises(ClientError, match="Writing in read access mode not allowed"):
        load_library(write_library(tmp_path, q=writing)).run(papers, "counting")
    assert papers.cypher("MATCH (p:Paper {paper_id: 'written'}) RETURN p") == []


@pytest.mark.parametrize("file", sorted(EVERY_QUERY), ids=lambda f: f.removesuffix(".cypher"))
def test_every_query_runs_on_an_empty_graph(kb, file):
    query = EVERY_QUERY[file]
    records, _, keys = kb.driver.execute_query(
        query.text, dict(query.browser), database_=kb.database, routing_=RoutingControl.READ
    )
    runs = LIBRARY.get(query.alias.target) if query.alias else query
    assert (records, keys) == ([], [c.name for c in runs.columns])
    if not any(p.type == "paper" and p.required for p in query.params) and not query.internal:
        assert kb.query(query.name, **{p.name: query.browser[p.name] for p in query.params if p.required}) == []


# -- results -----------------------------------------------------------------------------

ROWS = Result(
    [
        {"title": "Eta Graphs", "year": 2021, "posted": date(2021, 6, 1), "tags": ["a", "b"], "doi": None},
        {"title": "A title, with a comma", "year": 1999, "posted": None, "tags": [], "doi": "10.1/x"},
    ],
    ["title", "year", "posted", "tags", "doi"],
)


def test_result_as_json_has_iso_dates():
    assert json.loads(ROWS.render("json")) == [
        {"title": "Eta Graphs", "year": 2021, "posted": "2021-06-01", "tags": ["a", "b"], "doi": None},
        {"title": "A title, with a comma", "year": 1999, "posted": None, "tags": [], "doi": "10.1/x"},
    ]


def test_result_as_csv():
    assert list(csv.reader(io.StringIO(ROWS.render("csv")))) == [
        ["title", "year", "posted", "tags", "doi"],
        ["Eta Graphs", "2021", "2021-06-01", '["a", "b"]', ""],
        ["A title, with a comma", "1999", "", "[]", "10.1/x"],
    ]


def test_result_as_table():
    assert ROWS.render("table").splitlines() == [
        "title                  year  posted      tags        doi",
        "---------------------  ----  ----------  ----------  ------",
        'Eta Graphs             2021  2021-06-01  ["a", "b"]',
        "A title, with a comma  1999              []          10.1/x",
        "(2 rows)",
    ]


CLAIM = (
    "Synthetic soil textures are enough to train a root tip detector without field labels, and more "
    "words follow so that the claim needs more lines than a cell shows"
)


def test_a_table_fits_its_width_wrapping_prose_and_keeping_identifiers_whole():
    rows = Result(
        [{"claim_id": "claim:b639efd1430e603c7113", "claim": CLAIM, "checked": 1}], ["claim_id", "claim", "checked"]
    )
    lines = rows.to_table(width=60).splitlines()
    assert max(map(len, lines)) <= 60
    assert lines[2].startswith("claim:b639efd1430e603c7113  Synthetic soil")  # the identifier is whole
    assert lines[2].endswith("  1")
    cell = [line[28:].split("  ")[0] for line in lines[2:-1]]
    assert len(cell) == 4 and cell[-1].endswith("…")  # at most four lines, the last cut
    assert CLAIM.startswith(" ".join(cell)[:-1])
    assert rows.to_table(width=400).splitlines()[2].endswith(CLAIM + "        1")  # room: one line


def test_a_table_too_narrow_for_its_identifiers_wraps_headings_after_underscores_and_cuts_no_identifier():
    rows = Result(
        [
            {
                "title": "Contrastive pre-training for tomography",
                "paper_id": "title:70814cfab652042c",
                "cited_by_in_graph": 1,
            }
        ],
        ["title", "paper_id", "cited_by_in_graph"],
    )
    assert rows.to_table(width=40).splitlines() == [
        "title         paper_id                cited_",
        "                                      by_in_",
        "                                       graph",
        "------------  ----------------------  ------",
        "Contrastive   title:70814cfab652042c       1",
        "pre-training",
        "for",
        "tomography",
        "(1 row)",
    ]


def test_a_table_shows_an_untitled_work_by_its_identifier_and_json_keeps_null():
    rows = Result(
        [
            {"title": None, "doi": "10.55123/pm.2019.0208", "paper_id": "doi:10.55123/pm.2019.0208"},
            {"title": None, "doi": None, "paper_id": "title:f16ff8b35dc2c40d"},
        ],
        ["title", "doi", "paper_id"],
    )
    assert [line.split("  ")[0] for line in rows.to_table(width=120).splitlines()[2:4]] == [
        "(doi:10.55123/pm.2019.0208)",
        "(title:f16ff8b35dc2c40d)",
    ]
    assert json.loads(rows.to_json())[0]["title"] is None
    assert rows.to_csv().splitlines()[1].startswith(",10.55123")


def test_result_as_dataframe_keeps_columns_even_when_empty():
    frame = ROWS.to_df()
    assert list(frame.columns) == list(ROWS.columns) and frame["year"].tolist() == [2021, 1999]
    assert list(Result([], ["title", "year"]).to_df().columns) == ["title", "year"]


def test_query_results_are_results_with_plain_dates(papers):
    result = papers.query("paper_overview", paper="2106.00007")
    assert isinstance(result, Result) and result.columns == tuple(c.name for c in LIBRARY.get("paper_overview").columns)
    assert result[0]["first_posted"] == date(2021, 6, 1)
    assert result.to_df()["title"].tolist() == ["Eta Graphs"]


# -- the notebook API --------------------------------------------------------------------


def test_each_query_is_a_function_with_its_header_as_help(papers):
    ancestors = papers.queries.ancestors
    assert (
        str(inspect.signature(ancestors))
        == "(*, paper: str, depth: int = 2, since: int | None = None, until: int | None = None, limit: int = 100)"
        " -> paperkg.library.Result"
    )
    assert str(inspect.signature(papers.queries.unsupported_claims)).startswith(
        "(*, paper: str | None = None, kind: str | None = None, substantial_only: bool = False"
    )
    text = pydoc.render_doc(ancestors, renderer=pydoc.plaintext)
    assert LIBRARY.get("ancestors").description.split(",")[0] in text
    assert "depth (integer 1..5, default 2): how many citation steps to follow" in text
    assert "distance: the fewest citation steps from the paper to it" in text
    assert set(LIBRARY.names) <= set(dir(papers.queries))


def test_schema_derives_the_lowercase_title_find_papers_searches(kb):
    kb.execute(PAPERS)
    assert kb.query("find_papers", text="eta") == []  # made by hand: no title_lower yet
    apply_schema(kb)
    assert [row["title"] for row in kb.query("find_papers", text="ETA")] == [
        "Eta Graphs",
        "Theta Heuristics",
        "Zeta Frameworks",
    ]


def test_a_query_function_runs_the_query(papers):
    assert (
        papers.queries.find_papers(text="eta")
        == papers.query("find_papers", text="eta")
        == [
            {
                "title": "Eta Graphs",
                "year": 2021,
                "arxiv_id": "2106.00007",
                "doi": None,
                "paper_id": "arxiv:2106.00007",
                "cited_by_in_graph": 0,
                "claims": 0,
            },
            {
                "title": "Theta Heuristics",
                "year": 2022,
                "arxiv_id": None,
                "doi": None,
                "paper_id": "title:7e1a9c",
                "cited_by_in_graph": 0,
                "claims": 0,
            },
            {
                "title": "Zeta Frameworks",
                "year": 2020,
                "arxiv_id": None,
                "doi": "10.5555/zeta.2020",
                "paper_id": "doi:10.5555/zeta.2020",
                "cited_by_in_graph": 0,
                "claims": 0,
            },
        ]
    )
    with pytest.raises(TypeError):
        papers.queries.find_papers("eta")  # parameters are keyword-only


# -- the command line --------------------------------------------------------------------


def test_cli_list_documents_every_query_and_parameter(capsys):
    assert main(["query", "--list"]) == 0
    out = capsys.readouterr().out
    words = " ".join(out.split())  # long lines are wrapped
    for query in LIBRARY:
        assert f"\n{query.name}\n" in f"\n{out}"
        assert " ".join(query.description.split()) in words
        for param in query.params:
            assert f"-p {param.name}={param.type.upper()} (" in words
    assert "-p depth=INTEGER (1..5, default 2): how many citation steps to follow" in words


def test_cli_json(papers, capsys):
    assert main(["query", "paper_overview", "-p", "paper=https://arxiv.org/abs/2106.00007", "--format", "json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert (row["title"], row["first_posted"], row["paper_id"]) == ("Eta Graphs", "2021-06-01", "arxiv:2106.00007")


def test_cli_csv(papers, capsys):
    assert main(["query", "find_papers", "-p", "text=zeta", "--format", "csv"]) == 0
    assert list(csv.reader(io.StringIO(capsys.readouterr().out))) == [
        ["title", "year", "arxiv_id", "doi", "paper_id", "cited_by_in_graph", "claims"],
        ["Zeta Frameworks", "2020", "", "10.5555/zeta.2020", "doi:10.5555/zeta.2020", "0", "0"],
    ]


def test_cli_table_is_the_default(papers, capsys):
    assert main(["query", "find_papers", "-p", "text=theta"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "title             year  arxiv_id  doi  paper_id      cited_by_in_graph  claims",
        "----------------  ----  --------  ---  ------------  -----------------  ------",
        "Theta Heuristics  2022                 title:7e1a9c                  0       0",
        "(1 row)",
    ]


def test_cli_unknown_paper_exits_1_with_a_message(papers, capsys):
    assert main(["query", "ancestors", "-p", "paper=9999.99999"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.strip().splitlines() == [
        "paperkg: error: no paper matches '9999.99999' (looked up as paper_id, "
        "arxiv_id 9999.99999); give an arXiv id, a DOI or a paper_id of an "
        "ingested paper"
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["ancestors", "-p", "paper=2106.00007", "-p", "depth=deep"],
            "ancestors: parameter 'depth' must be an integer, got 'deep'",
        ),
        (["ancestors"], "ancestors needs parameter 'paper'"),
        (["ancestors", "-p", "paper=2106.00007", "-p", "nope=1"], "ancestors has no parameter 'nope'"),
        (["ancestor"], "no query named 'ancestor' (did you mean 'ancestors'?)"),
        ([], "name a query to run, or list them with `paperkg query --list`"),
    ],
)
def test_cli_bad_parameters_exit_2_with_one_line(capsys, args, message):
    assert main(["query", *args]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.startswith(f"paperkg: error: {message}")


# -- inputs a user may give by mistake (issue 21) ------------------------------------------


def test_csv_neutralises_cells_a_spreadsheet_would_run_as_formulas():
    rows = Result(
        [
            {"title": '=HYPERLINK("http://example.invalid","x")', "year": -3},
            {"title": "+1 then", "year": 2020},
            {"title": "@SUM(A1)", "year": 2021},
            {"title": "-minus", "year": 2022},
            {"title": "A plain title", "year": 2023},
        ],
        ["title", "year"],
    )
    assert list(csv.reader(io.StringIO(rows.render("csv"))))[1:] == [
        ['\'=HYPERLINK("http://example.invalid","x")', "-3"],
        ["'+1 then", "2020"],
        ["'@SUM(A1)", "2021"],
        ["'-minus", "2022"],
        ["A plain title", "2023"],
    ]


def test_cli_csv_neutralises_a_formula_title(kb, capsys):
    kb.execute("CREATE (:Paper {paper_id: 'title:f1', title: '=HYPERLINK(\"http://example.invalid\")', year: 2020})")
    apply_schema(kb)
    assert main(["query", "find_papers", "-p", "text=hyperlink", "--format", "csv"]) == 0
    (row,) = list(csv.reader(io.StringIO(capsys.readouterr().out)))[1:]
    assert row[0] == '\'=HYPERLINK("http://example.invalid")'


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["find_papers", "-p", "text=x", "-p", "limit=9223372036854775808"],
            "find_papers: parameter 'limit' must be a 64-bit integer (-9223372036854775808..9223372036854775807), "
            "got 9223372036854775808",
        ),
        (["find_papers", "-p", "text="], "find_papers: parameter 'text' must not be empty"),
        (["find_papers", "-p", "text=   "], "find_papers: parameter 'text' must not be empty"),
    ],
)
def test_cli_out_of_range_or_empty_parameters_exit_2_with_one_line(capsys, args, message):
    assert main(["query", *args]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.strip().splitlines() == [f"paperkg: error: {message}"]


def test_an_unknown_paper_error_quotes_a_huge_input_short(papers, capsys):
    huge = "10.5555/" + "x" * 2_000_000
    assert main(["query", "ancestors", "-p", f"paper={huge}"]) == 1
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.startswith("paperkg: error: no paper matches '10.5555/xxx")
    assert "(2,000,010 characters)" in line and len(line) < 400
