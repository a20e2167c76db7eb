"""Full-text search (issue 47): search_claims and search_works, `paperkg search`, and the
search text checked before Lucene sees it.

The example corpus answers the pinned searches; tests/fixtures/search (an invented page about
lichens and the card of a work it cites under a longer title) holds the accents, hyphens,
special characters and alternate titles the examples lack.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from paperkg.cli import main
from paperkg.cypher_files import SearchError
from paperkg.library import library
from paperkg.run.ingest import bulk_ingest, ingest_paths, sync_directory
from paperkg.search import STOP_WORDS, search_text
from paperkg.show import subgraph

from ecosystem import examples, forget

LICHENS = Path(__file__).parent / "fixtures" / "search"
LICHEN_PAPER = "2507.40001"

# Claims of the lichen page, by their text.
KERNELS = (
    "Kernel machines of the kind Schölkopf and Smola describe classify lichen photographs from a handful of examples."
)
IN_CONTEXT = "Large vision models learn in context from three labelled photographs."
CURVE = "A growth curve of the form x^2 + c (with c > 0) fits every rock face."
STYLE = "Scholkopf-style kernels need no pre-training on lichens."


@pytest.fixture(scope="module")
def corpus(session_kb):
    """examples/corpus, as `make run` ingests it (shared with other modules, never changed here)."""
    return examples(session_kb)


@pytest.fixture
def lichens(kb):
    """A graph of tests/fixtures/search alone (ingested), after which the examples load again."""
    report = ingest_paths(kb, [LICHENS])
    assert report.ok
    yield kb
    forget()


def claims(rows) -> list[str]:
    return [row["claim"] for row in rows]


# -- the example corpus ------------------------------------------------------------------


def test_a_word_finds_the_claims_using_it_with_their_paper_and_sources(corpus):
    assert corpus.query("search_claims", text="minirhizotron") == [
        {
            "score": 2.9854,
            "claim": "Minirhizotron images are dominated by soil texture rather than by sensor noise.",
            "status": "unverifiable",
            "title": "Do Root Architecture Models Generalise Across Soils?",
            "year": 2024,
            "arxiv_id": "2402.06618",
            "paper_id": "arxiv:2402.06618",
            "claim_id": "claim:4febe54a7a71a836acdd",
            "sources": [
                {
                    "source": "Tembo & Dunmore, 2018",
                    "verdict": None,
                    "work": "Soil Noise Models for Minirhizotron Imaging",
                }
            ],
        }
    ]


def test_a_prefix_finds_every_word_it_starts_and_check_notes_count(corpus):
    # "heritable" in the claim and its quote, "heritability" in a checker's note: a prefix
    # scores 1 per field it matches.
    assert corpus.query("search_claims", text="heritab*") == [
        {
            "score": 3.0,
            "claim": "Root angle is the most heritable root architecture trait in maize.",
            "status": "supported",
            "title": "Genome-Wide Association of Learned Root Traits in Maize",
            "year": 2023,
            "arxiv_id": "2311.11873",
            "paper_id": "arxiv:2311.11873",
            "claim_id": "claim:c4914730ad5b3948054d",
            "sources": [
                {
                    "source": "Iriarte et al., 2021",
                    "verdict": "supported",
                    "work": "Measuring Root System Architecture Traits at Field Scale",
                },
                {
                    "source": "Soto & Quispe, 2018",
                    "verdict": "not_supported",
                    "work": "Heritability of Root Angle in Maize Landraces",
                },
            ],
        }
    ]


def test_a_word_only_a_check_note_holds_finds_the_claim(corpus):
    # "a tenth of the time" is in the checker's note on the claim, not in the claim.
    (row,) = corpus.query("search_claims", text="tenth")
    assert (row["score"], row["claim"], row["status"]) == (
        0.8879,
        "Sparse-view reconstruction makes daily imaging of one soil column possible.",
        "unsupported",
    )


def test_a_phrase_finds_its_words_side_by_side_only(corpus):
    assert claims(corpus.query("search_claims", text='"soil texture"')) == [
        "Minirhizotron images are dominated by soil texture rather than by sensor noise."
    ]
    assert corpus.query("search_claims", text='"texture soil"') == []


def test_more_words_rank_higher_and_ties_go_by_text(corpus):
    rows = corpus.query("search_claims", text="soil", status="unsupported")
    assert [(row["score"], row["claim"][:40], row["arxiv_id"]) for row in rows] == [
        (1.8051, "Synthetic soil textures are enough to tr", "2402.06618"),
        (1.4392, "Synthetic soil pre-training removes the ", "2405.01127"),
        (1.291, "Fine-tuning on ten images per soil recov", "2405.01127"),
        (1.291, "Sparse-view reconstruction makes daily i", "2310.05512"),
    ]


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        (
            {"paper": "2405.01127"},
            [
                "Synthetic soil pre-training removes the need for field labels.",
                "Fine-tuning on ten images per soil recovers the F1 of full supervision.",
            ],
        ),
        (
            {"paper": "2310.05512", "status": "supported"},
            ["Synthetic root systems can replace most real labels for root detection."],
        ),
        (
            {"since": 2024, "until": 2024, "limit": 3},
            [
                "Synthetic soil textures are enough to train a root tip detector without field labels.",
                "Most root models are evaluated on the soil they were trained on.",
                "Annotators label root tips consistently across soil types.",
            ],
        ),
        (
            {"until": 2023},
            [
                "Sparse-view reconstruction makes daily imaging of one soil column possible.",
                "Synthetic root systems can replace most real labels for root detection.",
            ],
        ),
        ({"since": 2026}, []),
    ],
)
def test_filters_by_paper_status_and_year_of_the_claiming_paper(corpus, params, expected):
    assert claims(corpus.query("search_claims", text="soil", **params)) == expected


def test_the_python_api_the_dataframe_and_the_command_line_give_the_same_rows(corpus, capsys):
    rows = corpus.query("search_claims", text="synthetic soil", status="unsupported")
    assert len(rows) == 4
    assert corpus.queries.search_claims(text="synthetic soil", status="unsupported") == rows
    frame = corpus.query("search_claims", text="synthetic soil", status="unsupported").to_df()
    assert frame.to_dict("records") == rows
    assert main(["search", "synthetic soil", "--status", "unsupported", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out) == rows
    assert (
        main(["query", "search_claims", "-p", "text=synthetic soil", "-p", "status=unsupported", "--format", "json"])
        == 0
    )
    assert json.loads(capsys.readouterr().out) == rows


def test_search_prints_a_table_by_default(corpus, capsys):
    assert main(["search", "minirhizotron"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == [
        "score",
        "claim",
        "status",
        "title",
        "year",
        "arxiv_id",
        "paper_id",
        "claim_id",
        "sources",
    ]
    assert lines[2].startswith("2.9854  Minirhizotron")  # a score is never wrapped
    assert lines[-1] == "(1 row)"


def test_show_draws_the_claims_a_search_finds_with_their_paper_and_sources(corpus, tmp_path, capsys):
    out = tmp_path / "search.html"
    assert main(["show", "search_claims", "-p", "text=heritab*", "--html", str(out)]) == 0
    assert capsys.readouterr().out.strip() == f"wrote {out}"
    graph = subgraph(corpus, "search_claims", text="heritab*")
    assert sorted(
        (node["label"], node.get("key") or node.get("text") or node["id"]) for node in graph.nodes.values()
    ) == [
        ("Claim", "Root angle is the most heritable root architecture trait in maize."),
        ("Paper", "arxiv:2106.02290"),
        ("Paper", "arxiv:2311.11873"),
        ("Paper", "doi:10.55123/tag.2018.0231"),
        ("Source", "Iriarte et al., 2021"),
        ("Source", "Soto & Quispe, 2018"),
    ]


def test_search_works_finds_a_work_by_its_raw_reference(corpus):
    # "Washing roots …" is only a line of a page's raw reference list.
    assert corpus.query("search_works", text='"washing roots"') == [
        {
            "score": 3.6932,
            "title": "Washing roots out of soil columns: a protocol",
            "year": 2018,
            "arxiv_id": None,
            "doi": None,
            "paper_id": "title:f16ff8b35dc2c40d",
            "cited_by_in_graph": 1,
            "cited_as_source": 0,
        }
    ]


def test_search_works_ranks_titles_and_counts_citations(corpus):
    rows = corpus.query("search_works", text="rootgraph OR tomography", limit=2)
    assert [(row["title"], row["cited_by_in_graph"], row["cited_as_source"]) for row in rows] == [
        ("Contrastive pre-training for tomography", 1, 1),
        ("RootGraph: Recovering Plant Root Architecture as a Graph", 5, 1),
    ]
    assert [row["title"] for row in corpus.query("find_papers", text="rootgraph")] == [rows[1]["title"]]


# -- accents, case, hyphens, special characters --------------------------------------------


@pytest.mark.parametrize("text", ["Schölkopf", "scholkopf", "SCHOLKOPF", "Schö*", "schol*"])
def test_accents_and_case_do_not_matter(lichens, text):
    assert sorted(claims(lichens.query("search_claims", text=text))) == sorted([KERNELS, STYLE])


@pytest.mark.parametrize("text", ["in-context", '"in context"', '"in-context"', "IN-CONTEXT"])
def test_a_hyphen_is_a_space(lichens, text):
    # The claim says "in context", its quote "in-context".
    assert claims(lichens.query("search_claims", text=text)) == [IN_CONTEXT]


def test_special_characters_inside_a_phrase_match_literally(lichens):
    assert claims(lichens.query("search_claims", text='"x^2 + c"')) == [CURVE]
    assert claims(lichens.query("search_claims", text='"(with c > 0)"')) == [CURVE]


def test_a_check_note_is_searched_with_the_claim(lichens):
    assert claims(lichens.query("search_claims", text="svalbard", paper=LICHEN_PAPER)) == [KERNELS]


def test_search_works_finds_a_work_by_a_title_it_is_cited_under(lichens):
    # The page cites the card's work as "…, Extended Edition"; the card's title is the work's.
    (row,) = lichens.query("search_works", text='"extended edition"')
    assert (row["title"], row["arxiv_id"]) == ("Spectral Signatures of Crustose Lichens", "2401.20002")
    (row,) = lichens.query("search_works", text="Odegard atlas")
    assert row["title"] == "A lichen atlas of the northern coast"


# -- every load path keeps the indexes -----------------------------------------------------


def test_after_a_sync_search_finds_new_text_and_not_removed_text(kb, tmp_path):
    corpus = tmp_path / "corpus"
    shutil.copytree(LICHENS, corpus)
    page = corpus / "page_2507.40001.txt"
    sync_directory(kb, corpus)
    assert claims(kb.query("search_claims", text="growth curve")) == [CURVE]
    # Edit: the curve claim now names another curve.
    page.write_text(page.read_text(encoding="utf-8").replace("growth curve", "logistic curve"), encoding="utf-8")
    # Add: a page of another paper.
    other = (LICHENS / "page_2507.40001.txt").read_text(encoding="utf-8")
    other = other.replace("2507.40001", "2507.40002").replace("Few-Shot Lichen Identification", "Lichen Counting")
    other = other.replace("every rock face", "every quartzite face")
    (corpus / "page_2507.40002.txt").write_text(other, encoding="utf-8")
    report = sync_directory(kb, corpus)
    assert (report.totals["new"], report.totals["changed"]) == (1, 1)
    assert claims(kb.query("search_claims", text='"growth curve"')) == [CURVE.replace("every rock", "every quartzite")]
    assert claims(kb.query("search_claims", text="logistic")) == [CURVE.replace("growth curve", "logistic curve")]
    # Retract: the edited page's file is gone.
    page.unlink()
    report = sync_directory(kb, corpus)
    assert report.totals["retracted"] == 1
    assert kb.query("search_claims", text="logistic") == []
    assert kb.query("search_claims", text="svalbard", paper="2507.40002") != []
    assert [row["arxiv_id"] for row in kb.query("search_claims", text="svalbard")] == ["2507.40002"]
    forget()


def test_a_bulk_load_gives_the_answers_ingest_gives(kb):
    searches = [("search_claims", "scholkopf"), ("search_claims", "in-context"), ("search_works", "lichen*")]
    ingest_paths(kb, [LICHENS])
    ingested = [kb.query(name, text=text) for name, text in searches]
    kb.reset()
    report = bulk_ingest(kb, [LICHENS])
    assert report.ok
    assert [kb.query(name, text=text) for name, text in searches] == ingested
    forget()


def test_the_stop_words_refused_are_the_ones_the_index_leaves_out(session_kb):
    (row,) = session_kb.execute(  # a procedure kb.cypher() does not allow
        "CALL db.index.fulltext.listAvailableAnalyzers() YIELD analyzer, stopwords "
        "WHERE analyzer = 'standard-folding' RETURN stopwords"
    )
    assert set(row["stopwords"]) == STOP_WORDS
    indexes = session_kb.cypher(
        "SHOW FULLTEXT INDEXES YIELD name, options RETURN name, options.indexConfig.`fulltext.analyzer` AS analyzer"
    )
    assert sorted((index["name"], index["analyzer"]) for index in indexes) == [
        ("check_note_text", "standard-folding"),
        ("claim_text", "standard-folding"),
        ("evidence_title_text", "standard-folding"),
        ("work_text", "standard-folding"),
    ]


# -- bad search text ---------------------------------------------------------------------

BAD = [
    ('"single neurons', "the quote at character 1 is never closed"),
    ("(polysemantic OR neurons", "the '(' at character 1 is never closed"),
    ("polysemantic) neurons", "the ')' at character 13 closes no '('"),
    ("AND", "'AND' at character 1 needs a word on each side"),
    ("neurons AND", "'AND' at character 9 needs a word on each side"),
    ("neurons OR OR cells", "'OR' at character 12 needs a word on each side"),
    ("neurons NOT", "'NOT' at character 9 needs a word after it"),
    ("NOT neurons", "NOT and - only exclude: give a word to find as well"),
    ("", "the search text is empty"),
    ("   ", "the search text is empty"),
    ("*semantic", "'*semantic' at character 1 starts with a wildcard"),
    ("neurons ?ells", "'?ells' at character 9 starts with a wildcard"),
    ("()", "the parentheses at character 1 hold nothing"),
    ("the", "'the' finds nothing: the index leaves out punctuation and English stop words"),
    ("neurons\\", "the backslash at the end escapes nothing"),
]
EXAMPLE = '(search text looks like: polysemantic AND "single neurons", or neuro* NOT superposition)'


@pytest.mark.parametrize(("text", "problem"), BAD, ids=[text or "empty" for text, _ in BAD])
def test_bad_search_text_is_one_line_naming_the_problem_with_an_example_and_exit_1(capsys, text, problem):
    # Checked before connecting: no server is needed for these.
    for argv in (
        ["search", text],
        ["query", "search_claims", "-p", f"text={text}"],
        ["query", "search_works", "-p", f"text={text}"],
    ):
        assert main(argv) == 1
        out, err = capsys.readouterr()
        assert out == ""
        (line,) = err.strip().splitlines()
        assert line.startswith(
            f"paperkg: error: {argv[1] if argv[0] == 'query' else 'search_claims'}: parameter 'text': {problem}"
        )
        assert line.endswith(EXAMPLE)
    with pytest.raises(SearchError, match=re.escape(f"search_claims: parameter 'text': {problem}")):
        library().get("search_claims").bind({"text": text})


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("root~2.5", "Lucene cannot read 'root~2.5': Fractional edit distances are not allowed!"),
        (" ".join(f"w{n}" for n in range(1100)), "maxClauseCount is set to 1024"),
    ],
    ids=["fractional-fuzziness", "too-many-words"],
)
def test_what_lucene_still_refuses_is_the_same_kind_of_error(corpus, capsys, text, problem):
    assert main(["search", text]) == 1
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.startswith("paperkg: error: search_claims: parameter 'text': Lucene cannot read ")
    assert problem in line and line.endswith(EXAMPLE)
    with pytest.raises(SearchError, match=re.escape(problem)):
        corpus.query("search_claims", text=text)


@pytest.mark.parametrize(
    ("text", "sent"),
    [
        ("polysemantic neurons", "polysemantic neurons"),
        ('"single neurons"~2 AND cells', '"single neurons"~2 AND cells'),
        ("in-context", '"in-context"'),
        ("ratio:3 a/b", '"ratio:3" "a/b"'),
        ("Schö* && !cells", "scho* AND -cells"),
        ("(roots || soil) +maize", "( roots OR soil ) +maize"),
        ("root~ root^2", "root~ root^2"),
    ],
)
def test_the_text_sent_is_lucene_syntax_with_punctuation_inside_words_as_phrases(text, sent):
    assert search_text(text) == sent
