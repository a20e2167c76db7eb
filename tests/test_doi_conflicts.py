"""Two works that share a DOI but not an arXiv id (a raw reference glued the next entry's DOI to
its own arXiv link): the DOI is unique, so one paper keeps it and no document is rejected."""

from __future__ import annotations

import hashlib

from paperkg.ingest.identity import RANK_RAW_REFERENCE, RANK_SUBJECT, Mention
from paperkg.ingest.rows import Assertions
from paperkg.ingest.write import Pending, prepare_batch, write_batch

GLUED_DOI = "10.5555/glued.2020"


def document(name: str, subject: str, *references: tuple[str, str | None]) -> Assertions:
    """A page about arXiv `subject` citing (arXiv id, DOI) references."""
    a = Assertions(doc_id=f"/corpus/{name}", path=f"/corpus/{name}", kind="page", size_bytes=100, warnings=[],
                   sha256=hashlib.sha256(name.encode()).hexdigest())
    a.add_mention(Mention(arxiv_id=subject, doi=None, title=f"Paper {subject}", year=2021, rank=RANK_SUBJECT,
                          properties={"title": f"Paper {subject}", "year": 2021}))
    for arxiv_id, doi in references:
        index = a.add_mention(Mention(arxiv_id=arxiv_id, doi=doi, title=None, year=None, rank=RANK_RAW_REFERENCE))
        a.cites.append((0, index))
    return a


def write(kb, *documents: Assertions) -> list[dict]:
    with kb.driver.session(database=kb.database) as session:
        counts = session.execute_write(write_batch, prepare_batch([Pending(d, changed=False) for d in documents]), "run")
    return [dict(counts[d.doc_id]) for d in documents]


def holders(kb) -> dict[str, str | None]:
    return {row["arxiv_id"]: row["doi"] for row in kb.cypher(
        "MATCH (p:Paper) WHERE p.arxiv_id IN ['2001.00001', '2001.00002'] RETURN p.arxiv_id AS arxiv_id, p.doi AS doi")}


def test_two_works_of_one_batch_sharing_a_doi_the_first_keeps_it(kb):
    (counts,) = write(kb, document("a.txt", "2101.00001", ("2001.00001", GLUED_DOI), ("2001.00002", GLUED_DOI)))
    assert holders(kb) == {"2001.00001": GLUED_DOI, "2001.00002": None}
    assert counts["dois_withheld"] == 1 and counts["paper_cites"] == 2


def test_a_doi_already_in_the_graph_stays_with_its_paper(kb):
    write(kb, document("a.txt", "2101.00001", ("2001.00001", GLUED_DOI)))
    (counts,) = write(kb, document("b.txt", "2101.00002", ("2001.00002", GLUED_DOI)))
    assert holders(kb) == {"2001.00001": GLUED_DOI, "2001.00002": None}
    assert counts["dois_withheld"] == 1
    assert kb.cypher("MATCH (:Paper {arxiv_id: '2101.00002'})-[:CITES]->(p:Paper) RETURN p.arxiv_id AS id") == \
        [{"id": "2001.00002"}]


def test_a_doi_is_not_withheld_from_its_own_work(kb):
    write(kb, document("a.txt", "2101.00001", ("2001.00001", GLUED_DOI)))
    (counts,) = write(kb, document("b.txt", "2101.00002", ("2001.00001", GLUED_DOI)))
    assert holders(kb) == {"2001.00001": GLUED_DOI} and "dois_withheld" not in counts
