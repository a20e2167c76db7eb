"""A DOI stated with two arXiv ids (a raw reference glued the next entry's DOI to its own arXiv
link) belongs to neither work; stated with one, it is that work's. The rule looks at the set of
documents, so the order they come in, and retracting the one that made the DOI ambiguous,
decide nothing."""

from __future__ import annotations

import hashlib

from paperkg.graph.batch import Pending, prepare_batch
from paperkg.graph.identity import RANK_RAW_REFERENCE, RANK_SUBJECT, Mention
from paperkg.graph.rows import Assertions, DocumentMentions, units_of
from paperkg.load.transactions import retract_documents, write_batch

GLUED_DOI = "10.5555/glued.2020"


def document(name: str, subject: str, *references: tuple[str, str | None]) -> Assertions:
    """A page about arXiv `subject` citing (arXiv id, DOI) references."""
    digest = hashlib.sha256(name.encode()).hexdigest()
    read = DocumentMentions()
    read.add(
        Mention(
            arxiv_id=subject,
            doi=None,
            title=f"Paper {subject}",
            year=2021,
            rank=RANK_SUBJECT,
            properties={"title": f"Paper {subject}", "year": 2021},
        )
    )
    for arxiv_id, doi in references:
        index = read.add(Mention(arxiv_id=arxiv_id, doi=doi, title=None, year=None, rank=RANK_RAW_REFERENCE))
        read.cites.append((0, index))
    return Assertions(
        doc_id=digest,
        path=f"/corpus/{name}",
        kind="page",
        size_bytes=100,
        warnings=[],
        sha256=digest,
        paper_key=read.paper_key,
        units=units_of(read),
    )


def write(kb, *documents: Assertions) -> list[dict]:
    with kb.driver.session(database=kb.database) as session:
        result = session.execute_write(write_batch, prepare_batch([Pending(d) for d in documents]), "run")
    return [dict(result.counts[d.doc_id]) for d in documents]


def retract(kb, *documents: Assertions) -> None:
    with kb.driver.session(database=kb.database) as session:
        session.execute_write(retract_documents, [d.doc_id for d in documents])


def holders(kb) -> dict[str, str | None]:
    return {
        row["arxiv_id"]: row["doi"]
        for row in kb.cypher(
            "MATCH (p:Paper) WHERE p.arxiv_id IN ['2001.00001', '2001.00002'] RETURN p.arxiv_id AS arxiv_id, p.doi AS doi"
        )
    }


A = ("a.txt", "2101.00001", ("2001.00001", GLUED_DOI))
B = ("b.txt", "2101.00002", ("2001.00002", GLUED_DOI))


def test_a_doi_stated_with_two_arxiv_ids_belongs_to_neither(kb):
    (counts,) = write(kb, document("a.txt", "2101.00001", ("2001.00001", GLUED_DOI), ("2001.00002", GLUED_DOI)))
    assert holders(kb) == {"2001.00001": None, "2001.00002": None}
    assert counts["paper_cites"] == 2


def test_the_order_of_documents_decides_nothing(kb):
    write(kb, document(*A))
    assert holders(kb) == {"2001.00001": GLUED_DOI}
    write(kb, document(*B))
    after_two_batches = holders(kb)
    kb.reset()
    write(kb, document(*B), document(*A))
    assert holders(kb) == after_two_batches == {"2001.00001": None, "2001.00002": None}
    assert kb.cypher("MATCH (:Paper {arxiv_id: '2101.00002'})-[:CITES]->(p:Paper) RETURN p.arxiv_id AS id") == [
        {"id": "2001.00002"}
    ]


def test_retracting_the_document_that_made_a_doi_ambiguous_gives_it_back(kb):
    write(kb, document(*A), document(*B))
    retract(kb, document(*B))
    assert holders(kb) == {"2001.00001": GLUED_DOI}


def test_a_doi_stated_with_one_arxiv_id_by_two_documents_is_its_own(kb):
    write(kb, document(*A))
    write(kb, document("b.txt", "2101.00002", ("2001.00001", GLUED_DOI)))
    assert holders(kb) == {"2001.00001": GLUED_DOI}
