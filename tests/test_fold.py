"""A paper's properties are folded from its documents' statements in one order, `precedence`."""

import pytest

from paperkg.ingest.graph.identity import RANK_CARD_ITEM, RANK_RAW_REFERENCE, RANK_REFERENCE, RANK_SUBJECT
from paperkg.ingest.graph.write import fold, precedence

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
