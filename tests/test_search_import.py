"""Full-text search after the offline import (`export --admin-import`, then neo4j-admin): the
schema applied after the import builds the indexes, and the answers are those of `ingest`."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import free_port

from paperkg.db import connect
from paperkg.load.admin_import import export_admin_import, finish_import, import_into
from paperkg.run.ingest import ingest_paths
from paperkg.server import Instance

from ecosystem import EXAMPLES, forget

LICHENS = Path(__file__).parent / "fixtures" / "search"
SEARCHES = [
    ("search_claims", {"text": "synthetic soil"}),
    ("search_claims", {"text": '"soil texture" OR heritab*', "status": "unverifiable"}),
    ("search_claims", {"text": "scholkopf"}),
    ("search_claims", {"text": "in-context"}),
    ("search_claims", {"text": "tenth OR svalbard"}),  # words of check notes
    ("search_works", {"text": "washing roots"}),
    ("search_works", {"text": '"extended edition"'}),  # a title the work is cited under
]


@pytest.fixture
def import_server(tmp_path) -> Iterator[Instance]:
    instance = Instance(tmp_path / "imported")
    yield instance
    instance.stop()


def test_the_offline_import_gives_the_search_answers_ingest_gives(kb, tmp_path, import_server):
    ingest_paths(kb, [EXAMPLES, LICHENS])
    ingested = [kb.query(name, **params) for name, params in SEARCHES]
    assert all(ingested)
    forget()
    summary = export_admin_import([EXAMPLES, LICHENS], tmp_path / "export")
    assert not summary.rejected
    import_into(import_server, summary.directory)
    import_server.start(bolt_port=free_port(), http_port=free_port())
    with connect(home=str(import_server.home)) as imported:
        finish_import(imported)  # applies the schema, which builds the full-text indexes
        assert [imported.query(name, **params) for name, params in SEARCHES] == ingested
