"""Injection: hostile text in documents and in query parameters is data, never Cypher.

Titles, abstracts, claims, quotes and parameter values carrying quotes, backslashes, Cypher
fragments, `$param`, right-to-left marks, NUL bytes and megabyte strings are stored and
returned verbatim; and a scan of the code finds no value formatted into a Cypher statement.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from paperkg.graph import contract
from paperkg.library import UnknownPaper
from paperkg.run.ingest import ingest_paths

from procs import count, run

ROOT = Path(__file__).resolve().parents[1]

HOSTILE = [
    "O'Brien's \"double\" and `backtick` quotes",
    "back\\slash \\n \\t \\' \\\" \\\\ \\u0041",
    "'}) DETACH DELETE n //",
    '"}) MATCH (n) DETACH DELETE n //',
    "`}) MATCH (n) DETACH DELETE n //",
    "x'; MATCH (n) DETACH DELETE n; //",
    "$param {param} $0 ${x} {{x}} %s {0}",
    "\u202eright-to-left override\u202c \u200fRLM\u200f \u2067isolate\u2069 \u0639\u0631\u0628\u064a \u05e2\u05d1\u05e8\u05d9\u05ea",
    "*/ /* :param x => 1; CALL db.clearQueryCaches()",
]
MEGABYTE = ("\u03b2\u00df-" * 100_000) + ("m" * 700_000)  # 1 MB of text, 1.5 MB of UTF-8


def card(number: int, title: str, abstract: str, item_title: str) -> str:
    """An invented paper card (FORMAT.md A) citing one other invented paper."""
    return "\n".join(
        [
            f"# {title}",
            "",
            f"arXiv: https://arxiv.org/abs/2101.{number:05d} · HTML: https://mlsanity.com/paper/2101.{number:05d}/",
            "",
            "## Key facts",
            "",
            "- Cited by 1 papers in the map (data through 14 Oct 2026).",
            "",
            "## Built on by (most cited first, 1 of 1)",
            "",
            f"- [{item_title}](https://mlsanity.com/paper/2102.{number:05d}/) (2021)",
            "",
            "## Abstract (arXiv)",
            "",
            abstract,
        ]
    )


def page(seed_page: list[str], number: int, title: str, claim: str, quote: str) -> str:
    """The seed claim-check page, made about another paper, with its first claim and quote replaced."""
    lines = list(seed_page)
    lines[1] = title
    assert lines[31].startswith("The strong version") and lines[32].startswith("“")
    lines[31], lines[32] = claim, f"“{quote}”"
    arxiv = lines.index("- 2501.16496")
    lines[arxiv] = f"- 2103.{number:05d}"
    return "\n".join(lines)


@pytest.fixture(scope="module")
def seed_page(seeds_dir) -> list[str]:
    return next(seeds_dir.glob("004_*")).read_text().split("\n")


def one(kb, statement, **parameters):
    (row,) = kb.cypher(statement, **parameters)
    return row


def test_hostile_titles_abstracts_and_list_items_of_cards_are_stored_verbatim(kb, tmp_path):
    for number, text in enumerate(HOSTILE):
        (tmp_path / f"card{number}.txt").write_text(card(number, text, "Abstract: " + text, "Cited: " + text))
    report = ingest_paths(kb, [tmp_path])
    assert report.totals["new"] == len(HOSTILE) and report.ok
    for number, text in enumerate(HOSTILE):
        subject = one(
            kb,
            "MATCH (p:Paper {arxiv_id: $id}) RETURN p.title AS title, p.abstract AS abstract",
            id=f"2101.{number:05d}",
        )
        assert subject == {"title": text, "abstract": "Abstract: " + text}
        cited = one(
            kb, "MATCH (:Paper {arxiv_id: $id})<-[:CITES]-(p:Paper) RETURN p.title AS title", id=f"2101.{number:05d}"
        )
        assert cited["title"] == "Cited: " + text
        # Looked up by the hostile value itself, as a parameter.
        assert (
            one(kb, "MATCH (p:Paper {title: $title}) RETURN p.arxiv_id AS id", title=text)["id"] == f"2101.{number:05d}"
        )
    # Nothing was deleted or added by any of it: two papers per card, one edge each.
    assert count(kb, "Paper") == 2 * len(HOSTILE) and count(kb, "Document") == len(HOSTILE)
    assert one(kb, "MATCH ()-[r:CITES]->() RETURN count(r) AS n")["n"] == len(HOSTILE)


def test_hostile_page_titles_claims_and_quotes_are_stored_verbatim(kb, tmp_path, seed_page):
    texts = HOSTILE[:5] + HOSTILE[7:8]  # a few, each page is the 275 KB seed
    for number, text in enumerate(texts):
        (tmp_path / f"page{number}.txt").write_text(
            page(seed_page, number, "Title " + text, "Claim " + text, "Quote " + text)
        )
    report = ingest_paths(kb, [tmp_path])
    assert report.ok, [d.error for d in report.documents if d.error]
    for number, text in enumerate(texts):
        row = one(
            kb,
            """MATCH (p:Paper {arxiv_id: $id})-[:MAKES]->(c:Claim {text: $claim})
                         RETURN p.title AS title, c.quotes AS quotes""",
            id=f"2103.{number:05d}",
            claim="Claim " + text,
        )
        assert row == {"title": "Title " + text, "quotes": ["Quote " + text]}


def test_megabyte_title_abstract_claim_and_quote_round_trip(kb, tmp_path, seed_page):
    (tmp_path / "card.txt").write_text(card(1, "T " + MEGABYTE, "A " + MEGABYTE, "I " + MEGABYTE))
    (tmp_path / "page.txt").write_text(page(seed_page, 1, "P " + MEGABYTE, "C " + MEGABYTE, "Q " + MEGABYTE))
    report = ingest_paths(kb, [tmp_path])
    assert report.ok, [d.error for d in report.documents if d.error]
    row = one(kb, "MATCH (p:Paper {arxiv_id: '2101.00001'}) RETURN p.title AS title, p.abstract AS abstract")
    assert row["title"] == "T " + MEGABYTE and row["abstract"] == "A " + MEGABYTE
    assert [r["arxiv_id"] for r in kb.query("find_papers", text="T \u0392\u00df-\u03b2")] == ["2101.00001"]
    assert one(kb, "MATCH (p:Paper {arxiv_id: '2102.00001'}) RETURN p.title AS t")["t"] == "I " + MEGABYTE
    row = one(
        kb,
        "MATCH (p:Paper {arxiv_id: '2103.00001'})-[:MAKES]->(c:Claim) WHERE c.text STARTS WITH 'C '"
        " RETURN p.title AS title, c.text AS text, c.quotes AS quotes",
    )
    assert row == {"title": "P " + MEGABYTE, "text": "C " + MEGABYTE, "quotes": ["Q " + MEGABYTE]}
    # The normalised title is a key Neo4j can index: a shortened form, still unique to the title.
    norm = one(kb, "MATCH (p:Paper {arxiv_id: '2101.00001'}) RETURN p.title_norm AS norm")["norm"]
    assert norm.startswith("t \u03b2ss \u03b2ss \u03b2ss") and " sha256:" in norm and len(norm.encode()) < 4000
    assert ingest_paths(kb, [tmp_path]).totals["unchanged"] == 2


def test_nul_byte_in_a_document_is_a_clean_rejection_naming_file_and_line(kb, tmp_path):
    (tmp_path / "good.txt").write_text(card(1, "Good", "fine", "also fine"))
    (tmp_path / "nul.txt").write_text(card(2, "Nul", "an abstract with a \u0000 in it", "x"))
    result = run("ingest", str(tmp_path), "--json")
    assert result.returncode == 1
    report = {Path(d["path"]).name: d for d in json.loads(result.stdout)["documents"]}
    assert report["good.txt"]["status"] == "new"
    bad = report["nul.txt"]
    assert bad["status"] == "rejected" and bad["line"] == 15  # the abstract's line
    assert bad["error"] == f"{tmp_path / 'nul.txt'}:15: NUL byte: binary data, not a text document"
    assert count(kb, "Document") == 1


@pytest.mark.parametrize("value", HOSTILE + ["nul \u0000 byte", "\u0000", MEGABYTE], ids=lambda v: repr(v[:12]))
def test_parameter_values_come_back_verbatim_and_change_nothing(kb, value):
    kb.execute("CREATE (:Paper {paper_id: 'p1', title: 'kept'})")
    assert one(kb, "RETURN $value AS value", value=value)["value"] == value
    assert kb.cypher("MATCH (p:Paper) WHERE p.title = $value RETURN p", value=value) == []
    assert kb.cypher("MATCH (p:Paper {paper_id: $value}) RETURN p", value=value) == []
    kb.execute("MERGE (p:Paper {paper_id: 'p2'}) SET p.title = $value", value=value)
    assert one(kb, "MATCH (p:Paper {paper_id: 'p2'}) RETURN p.title AS t")["t"] == value
    assert one(kb, "MATCH (p:Paper) RETURN count(p) AS n")["n"] == 2


def test_library_queries_take_hostile_values_as_data(kb, tmp_path):
    for number, text in enumerate(HOSTILE):
        (tmp_path / f"card{number}.txt").write_text(card(number, text, "a", "b"))
    assert ingest_paths(kb, [tmp_path]).ok
    before = (count(kb, "Paper"), count(kb, "Document"))
    for number, text in enumerate(HOSTILE + ["nul \u0000 byte"]):
        rows = kb.query("find_papers", text=text)
        assert [row["title"] for row in rows] == ([text] if number < len(HOSTILE) else [])
        with pytest.raises(UnknownPaper, match="no paper matches"):
            kb.query("descendants", paper=text)
    assert (count(kb, "Paper"), count(kb, "Document")) == before


def test_paperkg_query_prints_hostile_values_verbatim(kb, tmp_path):
    for number, text in enumerate(HOSTILE):
        (tmp_path / f"card{number}.txt").write_text(card(number, text, "a", "b"))
    assert ingest_paths(kb, [tmp_path]).ok
    for text in (HOSTILE[2], HOSTILE[6], HOSTILE[7]):  # a process each: three of them
        result = run("query", "find_papers", "-p", f"text={text}", "--format", "json")
        assert result.returncode == 0, result.stderr
        assert [row["title"] for row in json.loads(result.stdout)] == [text]
        result = run("query", "descendants", "-p", f"paper={text}")
        assert result.returncode == 1 and "no paper matches" in result.stderr
        assert "Traceback" not in result.stderr
    assert count(kb, "Paper") == 2 * len(HOSTILE)


# -- static scan ---------------------------------------------------------------------------

CYPHER_WORD = re.compile(r"\b(MATCH|MERGE|CREATE|SET|WHERE|RETURN|DELETE|DETACH|UNWIND|CALL|REMOVE|LOAD CSV)\b")
# The fixed lists are the graph contract's (every one of them used, none other).
LABELS = set(contract.LABELS)
TYPES = set(contract.TYPES)


def python_files() -> list[Path]:
    """The package's Python files: paperkg/ and ingest/ (the package paperkg.ingest)."""
    return sorted({p.resolve() for folder in ("paperkg", "ingest") for p in (ROOT / folder).rglob("*.py")})


def cypher_files() -> list[Path]:
    """Every .cypher file of the project: cypher/, queries/ and any other (test fixtures, Browser)."""
    return sorted({p.resolve() for p in ROOT.rglob("*.cypher") if not p.relative_to(ROOT).parts[0].startswith(".")})


def _constant_text(node: ast.AST) -> str:
    return " ".join(n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str))


def formatted_cypher(tree: ast.AST) -> list[tuple[int, str]]:
    """Strings built from values (f-string, %, .format, +) whose fixed text reads as Cypher."""
    found = []
    for node in ast.walk(tree):
        built = None
        if (
            (isinstance(node, ast.JoinedStr) and any(isinstance(v, ast.FormattedValue) for v in node.values))
            or (
                isinstance(node, ast.BinOp)
                and isinstance(node.op, (ast.Mod, ast.Add))
                and (
                    isinstance(node.left, (ast.Constant, ast.JoinedStr))
                    or isinstance(node.right, (ast.Constant, ast.JoinedStr))
                )
            )
            or (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("format", "format_map")
                and isinstance(node.func.value, (ast.Constant, ast.JoinedStr))
            )
        ):
            built = node
        if built is not None and CYPHER_WORD.search(_constant_text(built)):
            found.append((node.lineno, ast.unparse(node)[:120]))
    return found


def test_scan_finds_formatted_cypher_in_a_planted_example():
    # Kept out of the .py files: it is code the project must never contain.
    planted = ast.parse((Path(__file__).parent / "fixtures" / "planted_formatted_cypher.txt").read_text())
    assert [line for line, _ in formatted_cypher(planted)] == [1, 2, 3, 4]


def test_no_value_is_formatted_into_cypher_in_the_python_code():
    files = python_files()
    assert {"db.py", "run.py", "write.py", "lock.py", "library.py", "admin_import.py"} <= {p.name for p in files}
    found = {
        f"{path.relative_to(ROOT)}:{line}: {text}"
        for path in files
        for line, text in formatted_cypher(ast.parse(path.read_text(), str(path)))
    }
    assert found == set()


def _cypher_body(text: str) -> str:
    """Cypher without `//` comments, string literals emptied, and each escaped name (in backticks,
    like the CSV column `paper_id:ID(Paper)`) read as the plain name `_`."""
    text = "\n".join(line.split("//")[0] if not line.lstrip().startswith("//") else "" for line in text.splitlines())
    text = re.sub(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"", "''", text)
    return re.sub(r"`[^`]*`", "_", text)


NODE_LABEL = re.compile(r"\(\s*[A-Za-z_]\w*\s*((?::\s*[A-Za-z_]\w*\s*)+)|\(\s*((?::\s*[A-Za-z_]\w*\s*)+)")
LABEL_TEST = re.compile(r"\b[a-z_]\w*((?::[A-Z]\w*)+)")
REL_TYPE = re.compile(r"\[\s*[A-Za-z_]?\w*\s*:\s*([A-Za-z_|:!&\s]+?)\s*[\]*{]")


def labels_and_types(text: str) -> tuple[set[str], set[str]]:
    body = _cypher_body(text)
    types = {
        part.strip() for match in REL_TYPE.finditer(body) for part in re.split(r"[|:!&]", match[1]) if part.strip()
    }
    body = re.sub(r"-\[[^\[\]]*\]-", "--", body)  # relationship patterns read, labels remain
    labels: set[str] = set()
    for match in NODE_LABEL.finditer(body):
        labels |= {part.strip() for part in (match[1] or match[2]).split(":") if part.strip()}
    for match in LABEL_TEST.finditer(body):
        labels |= {part for part in match[1].split(":") if part}
    return labels, types


def test_label_and_type_scan_reads_patterns():
    labels, types = labels_and_types(
        "MATCH (a:Paper)-[r:CITES|MAKES*1..3]->(:Claim:Source {x: 'y:Z'}) WHERE b:Document "
        "// (n:Commented)\nRETURN [(a)-[:REFERS_TO]->(p) | p], {k: v}"
    )
    assert labels == {"Paper", "Claim", "Source", "Document"} and types == {"CITES", "MAKES", "REFERS_TO"}


def test_cypher_files_use_only_the_fixed_labels_and_relationship_types():
    files = cypher_files()
    assert {"cypher", "queries"} <= {path.parent.name for path in files}
    used_labels: set[str] = set()
    used_types: set[str] = set()
    for path in files:
        labels, types = labels_and_types(path.read_text())
        assert labels <= LABELS, f"{path.name}: unexpected labels {labels - LABELS}"
        assert types <= TYPES, f"{path.name}: unexpected relationship types {types - TYPES}"
        used_labels |= labels
        used_types |= types
    assert used_labels == LABELS and used_types == TYPES


def test_cypher_in_python_uses_only_the_fixed_labels_and_types():
    for path in python_files():
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and CYPHER_WORD.search(node.value)
                and re.search(r"[(\[]", node.value)
            ):
                labels, types = labels_and_types(node.value)
                assert labels <= LABELS and types <= TYPES, f"{path.name}:{node.lineno}: {labels} {types}"
