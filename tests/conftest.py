"""Shared fixtures: one Neo4j for the whole session, on its own ports and home, never the user's."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from paperkg.corpus import files
from paperkg.db import KnowledgeBase, connect
from paperkg.load.schema import apply_schema
from paperkg.server import Instance

import seeds

NEO4J_ENV = ("NEO4J_URI", "NEO4J_USERNAME", "NEO4J_PASSWORD", "NEO4J_DATABASE")
# The files that take longest (each over half a minute), run first: `make test` gives whole
# files to two workers in collection order, so starting with these lets both finish together.
SLOWEST_FIRST = (
    "test_crash_import.py",
    "test_crash_import_finish.py",
    "test_reliability.py",
    "test_differential.py",
    "test_crash.py",
    "test_search_import.py",
    "test_admin_import.py",
    "test_reference_graphs.py",
    "test_first_hour.py",
    "test_server.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {name: place for place, name in enumerate(SLOWEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable: the rest keep their order


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="session", autouse=True)
def cache_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """XDG_CACHE_HOME for the session: runs record their files' hashes here, never in the user's cache."""
    home = tmp_path_factory.mktemp("cache-home")
    with pytest.MonkeyPatch.context() as env:
        env.setenv("XDG_CACHE_HOME", str(home))
        yield home


# Every JVM the suite starts (its servers, neo4j-admin, Maven) compiles with the JIT's first tier
# only and does not verify Neo4j's classes as it loads them. Its servers live for seconds to minutes
# over small graphs, so the optimizing tier's compiles and the verification are CPU spent on code
# that runs a few times, while two workers share two cores; bench/server_start.py measures the
# difference. A JIT tier changes how fast code runs, not what it does; the benchmark's servers
# run as paperkg starts them.
SUITE_JVM_OPTIONS = "-XX:TieredStopAtLevel=1 -XX:+UnlockDiagnosticVMOptions -XX:-BytecodeVerificationRemote"


@pytest.fixture(scope="session", autouse=True)
def short_lived_jvms() -> Iterator[None]:
    """SUITE_JVM_OPTIONS before any JAVA_TOOL_OPTIONS of the developer's, which keep the last word."""
    with pytest.MonkeyPatch.context() as env:
        env.setenv("JAVA_TOOL_OPTIONS", SUITE_JVM_OPTIONS, prepend=" ")
        yield


@pytest.fixture
def short_racy_window(monkeypatch: pytest.MonkeyPatch) -> None:
    """A racy window of 0.05 s for the file-hash cache (files.RACY_SECONDS), so that a file written
    in a test is trusted once SETTLE seconds have passed (tests/test_file_hashes.py)."""
    monkeypatch.setattr(files, "RACY_SECONDS", 0.05)


@pytest.fixture(scope="session")
def neo4j_instance(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Instance]:
    """A managed Neo4j started by the suite in a temporary home; PAPERKG_HOME points at it."""
    home = tmp_path_factory.mktemp("paperkg-home")
    with pytest.MonkeyPatch.context() as env:
        for name in NEO4J_ENV:
            env.delenv(name, raising=False)
        env.setenv("PAPERKG_HOME", str(home))
        instance = Instance(home)
        instance.start(bolt_port=free_port(), http_port=free_port())
        try:
            yield instance
        finally:
            instance.stop()


@pytest.fixture(scope="session")
def session_kb(neo4j_instance: Instance) -> Iterator[KnowledgeBase]:
    kb = connect(home=str(neo4j_instance.home))
    apply_schema(kb)
    yield kb
    kb.close()


@pytest.fixture
def kb(session_kb: KnowledgeBase) -> KnowledgeBase:
    """The session's knowledge base, emptied (schema kept) before the test."""
    session_kb.reset()
    return session_kb


@pytest.fixture(scope="session")
def seeds_dir() -> Path:
    """The four real documents (tests/seeds.py: skipped when missing, failed where CI=true)."""
    return seeds.seeds_dir()
