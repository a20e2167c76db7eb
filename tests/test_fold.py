"""A paper's properties are folded from its documents' statements in one order, `precedence`."""

import pytest

from paperkg.graph.batch import fold, precedence
from paperkg.graph.identity import RANK_CARD_ITEM, RANK_RAW_REFERENCE, RANK_REFERENCE, RANK_SUBJECT
from paperkg.load.transactions import refold_papers

DOC_A, DOC_B = "a" * 64, "b" * 64
KEY_1, KEY_2 = "1" * 16, "2" * 16


def test_precedence_puts_the_best_rank_first_then_the_lower_document_then_the_lower_key():
    statements = [
        (RANK_RAW_REFERENCE, DOC_A, KEY_1),
        (RANK_REFERENCE, DOC_B, KEY_1),
        (RANK_REFERENCE, DOC_A, KEY_2),
        (RANK_REFERENCE, DOC_A, KEY_1),
        (RANK_CARD_ITEM, DOC_B, KEY_2),
        (RANK_SUBJECT, DOC_B, KEY_2),
    ]
    assert sorted(statements, key=lambda s: precedence(*s)) == [
        (RANK_SUBJECT, DOC_B, KEY_2),
        (RANK_CARD_ITEM, DOC_B, KEY_2),
        (RANK_REFERENCE, DOC_A, KEY_1),
        (RANK_REFERENCE, DOC_A, KEY_2),
        (RANK_REFERENCE, DOC_B, KEY_1),
        (RANK_RAW_REFERENCE, DOC_A, KEY_1),
    ]


@pytest.mark.parametrize(
    ("rank", "doc_id", "key"), [(0, DOC_A, KEY_1), (5, DOC_A, KEY_1), (1, "a", KEY_1), (1, DOC_A, "k")]
)
def test_precedence_refuses_parts_that_would_not_order_alike_in_cypher(rank, doc_id, key):
    with pytest.raises(ValueError, match="no precedence for rank"):
        precedence(rank, doc_id, key)


def test_fold_takes_each_property_from_the_first_statement_that_states_it_whatever_the_order():
    statements = [
        {"precedence": precedence(RANK_REFERENCE, DOC_A, KEY_1), "properties": {"title": "Ref title", "year": 2020}},
        {"precedence": precedence(RANK_SUBJECT, DOC_B, KEY_1), "properties": {"title": "Own title"}},
        {"precedence": precedence(RANK_REFERENCE, DOC_B, KEY_1), "properties": {"year": 2021, "venue": "V"}},
    ]
    for order in (statements, statements[::-1], statements[1:] + statements[:1]):
        folded: dict = {}
        for statement in order:
            fold(folded, statement)
        assert {key: value for key, (_, value) in folded.items()} == {"title": "Own title", "year": 2020, "venue": "V"}


def test_a_retraction_refolds_only_what_the_withdrawn_statements_decided(kb):
    own, reference, other = (
        precedence(RANK_SUBJECT, DOC_A, KEY_1),
        precedence(RANK_REFERENCE, DOC_A, KEY_2),
        precedence(RANK_REFERENCE, DOC_B, KEY_1),
    )
    kb.execute(
        "CREATE (p:Paper {paper_id: 'p', arxiv_id: '2101.00001', title: 'Own', year: 2020, venue: 'V', url: 'stale'})"
        " CREATE (:Document {doc_id: 'a'})-[:MENTIONS {precedence: $own, key: 'k1', title: 'Own', venue: 'V'}]->(p)"
        " CREATE (:Document {doc_id: 'b'})-[:MENTIONS {precedence: $reference, key: 'k2', title: 'Ref', year: 2020}]->(p)"
        " CREATE (:Document {doc_id: 'c'})-[:MENTIONS {precedence: $other, key: 'k3', title: 'Other', year: 2021}]->(p)",
        own=own,
        reference=reference,
        other=other,
    )
    kb.execute("MATCH (:Document {doc_id: 'a'})-[m]->() DELETE m")
    kb.execute("MATCH (:Document {doc_id: 'c'})-[m]->() DELETE m")
    withdrawn = {"p": [[own, ["precedence", "key", "title", "venue"]], [other, ["precedence", "key", "title", "year"]]]}
    with kb.session() as session:
        session.execute_write(refold_papers, set(), withdrawn)
    paper = "MATCH (p:Paper) RETURN properties(p) AS p"
    # The title and venue the withdrawn subject decided fold again; the year it did not decide
    # stays, and so does a property no withdrawn statement stated.
    expected = {"paper_id": "p", "arxiv_id": "2101.00001", "title": "Ref", "year": 2020, "url": "stale"}
    assert kb.cypher(paper) == [{"p": expected}]
    with kb.session() as session:
        session.execute_write(refold_papers, {"p"})
    del expected["url"]
    assert kb.cypher(paper) == [{"p": expected}]
