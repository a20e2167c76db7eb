"""One loader, one header format: every Cypher file paperkg runs is read by paperkg.cypher_files."""

import re
from pathlib import Path

import pytest

from paperkg.cypher_files import (
    CypherFileError,
    cypher_file,
    parse_cypher_file,
    read_cypher_file,
    statement,
    statements,
)
from paperkg.package_data import data_folder

ROOT = Path(__file__).resolve().parents[1]
STATEMENT = """// name: touch
// Marks the papers named, so the tests can see how a statement's header is read.
//
// param paper_ids: list — paper_ids of the papers to mark
// param at: datetime — when
UNWIND $paper_ids AS paper_id
MATCH (p:Paper {paper_id: paper_id})
SET p.touched = $at;
"""


def every_cypher_file() -> list[Path]:
    folders = [ROOT / "cypher", ROOT / "queries", ROOT / "bench", ROOT / "tests" / "fixtures"]
    return sorted(path for folder in folders for path in folder.rglob("*.cypher"))


def test_every_cypher_file_of_the_project_has_the_one_header_format():
    files = every_cypher_file()
    assert len(files) > 90
    for path in files:
        loaded = read_cypher_file(path)  # raises, naming the file and line, on any other format
        assert loaded.statements or loaded.alias, path


def test_each_pipeline_statement_is_named_by_its_file():
    names = [e.name.removesuffix(".cypher") for e in data_folder("cypher").iterdir()]
    names = sorted(n for n in names if not n.startswith("__"))
    assert [cypher_file(name).name for name in names] == names


def test_a_statement_declares_its_parameters_with_their_types():
    loaded = parse_cypher_file("touch.cypher", STATEMENT)
    assert [(p.name, p.type, p.meaning) for p in loaded.params] == [
        ("paper_ids", "list", "paper_ids of the papers to mark"),
        ("at", "datetime", "when"),
    ]
    assert loaded.description == "Marks the papers named, so the tests can see how a statement's header is read."
    assert loaded.statements == (
        "UNWIND $paper_ids AS paper_id\nMATCH (p:Paper {paper_id: paper_id})\nSET p.touched = $at",
    )


@pytest.mark.parametrize(
    ("old", "new", "problem"),
    [
        (
            "SET p.touched = $at",
            "SET p.touched = $at, p.by = $who",
            "touch.cypher:6: the Cypher uses undeclared parameters: who",
        ),
        ("// param at: datetime — when\n", "", "touch.cypher:5: the Cypher uses undeclared parameters: at"),
        ("SET p.touched = $at", "SET p.touched = true", "declared parameters the Cypher never uses: at"),
        ("// name: touch\n", "// touch: marks papers\n", "touch.cypher:1: the header must open with `// name: <name>`"),
        ("at: datetime", "at: instant", "touch.cypher:5: unknown type 'instant'"),
    ],
)
def test_a_malformed_statement_file_is_refused_naming_file_and_line(old, new, problem):
    assert old in STATEMENT
    with pytest.raises(CypherFileError) as error:
        parse_cypher_file("touch.cypher", STATEMENT.replace(old, new, 1))
    assert problem in str(error.value)


def test_a_statement_file_holds_the_statements_its_name_promises():
    count = len(statements("schema"))
    assert count > 1
    with pytest.raises(CypherFileError, match=re.escape(f"schema.cypher holds {count} statements, not one")):
        statement("schema")
