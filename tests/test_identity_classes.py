"""`resolve` works one connected class of evidence at a time: the rules run over the whole set
at once give the same works, on random sets dense in shared ids, DOIs, titles and near years
(so preprints, glued references, contested titles and yearless titles all occur)."""

from __future__ import annotations

import random

import pytest

from paperkg.graph.identity import Evidence, Work, _resolve_connected, resolve, works_of


def random_evidence(rng: random.Random, count: int) -> set[Evidence]:
    arxiv_ids = [f"2101.{n:05d}" for n in range(4)]
    dois = [f"10.1/{n}" for n in range(5)]
    titles = ["alpha", "beta", "gamma", "delta"]
    years = [None, 2010, 2011, 2012, 2014]
    found = set()
    for _ in range(count):
        arxiv_id = rng.choice(arxiv_ids) if rng.random() < 0.3 else None
        doi = rng.choice(dois) if rng.random() < 0.35 else None
        title = rng.choice(titles) if rng.random() < 0.8 else None
        year = rng.choice(years) if title else None
        fallback = None if (arxiv_id or doi or title) else rng.choice(["ref-a", "ref-b", ""])
        found.add(Evidence(arxiv_id, doi, title, year, fallback))
    return found


def described(works: dict[Evidence, Work]) -> dict[str, tuple]:
    """Each evidence's work, by everything a work holds."""
    return {
        e.encode(): (w.paper_id, w.arxiv_id, tuple(w.dois), w.fallback, tuple(x.encode() for x in w.evidence))
        for e, w in works.items()
    }


@pytest.mark.parametrize("seed", range(400))
def test_classes_resolved_apart_give_the_works_of_the_whole_set(seed):
    rng = random.Random(seed)
    evidence = random_evidence(rng, rng.randint(1, 40))
    whole = {e: work for work in _resolve_connected(evidence) for e in work.evidence}
    assert described(resolve(evidence)) == described(whole)
    assert set(whole) == evidence


def test_the_random_sets_hold_several_classes_and_the_contested_cases():
    """The comparison above means something: the sets split into classes, and the rules that
    keep works apart fire."""
    classes, contested = 0, 0
    for seed in range(400):
        rng = random.Random(seed)
        evidence = random_evidence(rng, rng.randint(1, 40))
        works = {id(w): w for w in works_of(evidence)}.values()
        classes += len(works) > 1
        titled = {}
        for w in works:
            for e in w.evidence:
                titled.setdefault(e.title_norm, set()).add(w.paper_id)
        contested += any(title and len(ids) > 1 for title, ids in titled.items())
    assert classes > 300 and contested > 200


def test_each_evidence_is_in_one_work_of_works_of():
    evidence = {
        Evidence("2005.00719", None, "probing", 2020),
        Evidence(None, "10.1/acl", "probing", 2020),
        Evidence(None, None, "probing", None),
        Evidence(None, None, "other", 2001),
        Evidence(None, None, None, None, "(2019) cited by 6"),
        Evidence(None, None, None, None, "(2019) cited by 6"),
    }
    works = list(works_of(evidence))
    assert sorted((len(w.evidence), w.paper_id.split(":")[0]) for w in works) == [
        (1, "ref"),
        (1, "title"),
        (3, "arxiv"),
    ]
    assert sorted(e.encode() for w in works for e in w.evidence) == sorted(e.encode() for e in evidence)
