"""Secrets and read-only access: auth is on, the password never shows, reads cannot write.

Loopback-only listening and the password file's mode are pinned in test_server.py.
"""

from __future__ import annotations

import http.server
import logging
import stat
import threading
import time
import traceback

import pytest
from conftest import free_port
from neo4j import GraphDatabase
from neo4j.exceptions import AuthError, ClientError

from paperkg import cli
from paperkg import library as library_module
from paperkg.db import ConnectionFailed, Settings, connect
from paperkg.library import library, load_library
from paperkg.readonly import ReadOnlyViolation

from procs import count, environment, open_transaction, run

WRONG = "Wr0ng-pa55word-that-must-never-be-printed"


def no_secret(text: str, *secrets: str) -> bool:
    return not any(secret in text for secret in secrets)


# -- authentication --------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def login_succeeds_after_the_test(neo4j_instance):
    """Neo4j locks a user out for a few seconds after three wrong passwords in a row; a good
    login resets the count. End every test with one, so wrong passwords never add up across
    tests and lock out the rest of the suite."""
    yield
    deadline = time.monotonic() + 30
    while True:
        try:
            connect(home=str(neo4j_instance.home)).close()
            return
        except ConnectionFailed:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)


def test_repeated_wrong_passwords_are_a_clear_refusal_too(neo4j_instance):
    messages = set()
    for _ in range(4):  # the fourth meets Neo4j's lock-out
        with pytest.raises(ConnectionFailed) as caught:
            connect(uri=neo4j_instance.bolt_uri, auth=("neo4j", WRONG))
        messages.add(str(caught.value).split(" refuse")[0])
    assert messages == {f"Neo4j at {neo4j_instance.bolt_uri}"}


def test_connecting_without_credentials_is_refused(neo4j_instance):
    with GraphDatabase.driver(neo4j_instance.bolt_uri, auth=None) as driver, pytest.raises(AuthError):
        driver.verify_connectivity()


def test_a_wrong_password_is_refused_and_the_error_names_neither_password(neo4j_instance):
    with pytest.raises(ConnectionFailed) as caught:
        connect(uri=neo4j_instance.bolt_uri, auth=("neo4j", WRONG))
    message = str(caught.value)
    assert message == (
        f"Neo4j at {neo4j_instance.bolt_uri} refused the credentials of user 'neo4j' "
        "(check NEO4J_USERNAME / NEO4J_PASSWORD)"
    )
    everything = "".join(traceback.format_exception(caught.value))
    assert no_secret(everything, WRONG, neo4j_instance.password())


def test_cli_with_a_wrong_password_exits_2_naming_the_uri_only(neo4j_instance):
    env = environment(NEO4J_URI=neo4j_instance.bolt_uri, NEO4J_PASSWORD=WRONG)
    for verbose in ([], ["--verbose"]):
        result = run(*verbose, "stats", env=env)
        assert result.returncode == 2
        assert result.stdout == ""
        assert f"paperkg: error: Neo4j at {neo4j_instance.bolt_uri} refused the credentials" in result.stderr
        assert no_secret(result.stdout + result.stderr, WRONG, neo4j_instance.password())
    assert len(result.stderr.strip().splitlines()) > 1  # --verbose did print the traceback


@pytest.mark.parametrize("command", [["stats"], ["ingest", "."], ["query", "find_papers", "-p", "text=x"]])
def test_unreachable_neo4j_uri_exits_2_naming_the_uri_never_the_password(neo4j_instance, command):
    uri = f"bolt://127.0.0.1:{free_port()}"  # nothing listens there
    password = neo4j_instance.password()
    result = run(*command, env=environment(NEO4J_URI=uri, NEO4J_PASSWORD=password))
    assert result.returncode == 2
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(f"paperkg: error: cannot reach Neo4j at {uri}: ")
    assert no_secret(result.stdout + result.stderr, password)


def test_credentials_written_into_the_uri_are_refused_without_echoing_them():
    secret = "pa55/word-in-a-uri"
    result = run("stats", env=environment(NEO4J_URI=f"bolt://neo4j:{secret}@127.0.0.1:7687"))
    assert result.returncode == 2
    assert result.stderr.strip() == (
        "paperkg: error: the Neo4j URI must not carry credentials (…@127.0.0.1:7687): "
        "set NEO4J_USERNAME and NEO4J_PASSWORD instead"
    )
    assert no_secret(result.stderr, secret, "pa55")


def test_driver_debug_log_never_carries_a_password(neo4j_instance, caplog):
    password = neo4j_instance.password()
    with caplog.at_level(logging.DEBUG, logger="neo4j"):
        with connect(home=str(neo4j_instance.home)) as kb:
            assert kb.cypher("RETURN 1 AS one") == [{"one": 1}]
        with pytest.raises(ConnectionFailed):
            connect(uri=neo4j_instance.bolt_uri, auth=("neo4j", WRONG))
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert "HELLO" in logged or "LOGON" in logged  # the authentication messages were logged...
    assert no_secret(logged, password, WRONG)  # ...with the credentials masked


def test_settings_and_knowledge_base_reprs_hide_the_password(neo4j_instance):
    password = neo4j_instance.password()
    settings = Settings(uri="bolt://127.0.0.1:1", auth=("neo4j", WRONG), database=None)
    assert no_secret(repr(settings) + str(settings), WRONG)
    with connect(home=str(neo4j_instance.home)) as kb:
        assert no_secret(repr(kb) + str(kb) + repr(kb.settings), password)


def test_server_logs_hold_no_password_after_failed_logins(neo4j_instance):
    for _ in range(2):
        with pytest.raises(ConnectionFailed):
            connect(uri=neo4j_instance.bolt_uri, auth=("neo4j", WRONG))
    logs = list((neo4j_instance.home / "logs").iterdir())
    assert logs
    for log in logs:
        assert no_secret(log.read_text(errors="replace"), WRONG, neo4j_instance.password()), log


# -- read-only access ------------------------------------------------------------------------

WRITES = [
    "CREATE (:Paper {paper_id: 'written'})",
    "MERGE (p:Paper {paper_id: 'kept'}) SET p.title = 'changed'",
    "MATCH (p:Paper) SET p.title = 'changed'",
    "MATCH (p:Paper) REMOVE p.title",
    "MATCH (n) DETACH DELETE n",
    "MATCH (p:Paper) CALL (p) { DETACH DELETE p } RETURN count(*) AS n",
    "CREATE INDEX sneaky IF NOT EXISTS FOR (p:Paper) ON (p.sneaky)",
    "MATCH (p:Paper) WITH p LIMIT 1 CREATE (p)-[:CITES]->(:Paper {paper_id: 'new'})",
]


@pytest.fixture
def one_paper(kb):
    kb.execute("CREATE (:Paper {paper_id: 'kept', title: 'Kept'})")
    return kb


def graph(kb) -> list[dict]:
    return kb.cypher("MATCH (n) OPTIONAL MATCH (n)-[r]->() RETURN properties(n) AS n, type(r) AS r")


@pytest.mark.parametrize("statement", WRITES)
def test_ad_hoc_cypher_cannot_write(one_paper, statement):
    before = graph(one_paper)
    indexes = one_paper.cypher("SHOW INDEXES YIELD name RETURN collect(name) AS names")
    with pytest.raises(ReadOnlyViolation, match=r"^kb.cypher\(\) only reads the graph and refuses writes"):
        one_paper.cypher(statement)
    assert graph(one_paper) == before == [{"n": {"paper_id": "kept", "title": "Kept"}, "r": None}]
    assert one_paper.cypher("SHOW INDEXES YIELD name RETURN collect(name) AS names") == indexes


def test_every_library_query_is_planned_as_read_only(session_kb):
    queries = list(library())
    assert len(queries) >= 10
    for query in queries:
        _, summary, _ = session_kb.driver.execute_query(
            "EXPLAIN " + query.text, {p.name: None for p in query.params}, database_=session_kb.database
        )
        assert summary.query_type == "r", query.name


SNEAKY = """// name: sneaky
// A query someone added that writes.
//
// param title: string — the title to set
//
// column n — papers changed
//
// Neo4j Browser:
// :param title => 'changed';

MATCH (p:Paper) SET p.title = $title RETURN count(p) AS n
"""


@pytest.fixture
def sneaky_library(tmp_path, monkeypatch):
    (tmp_path / "sneaky.cypher").write_text(SNEAKY)
    sneaky = load_library(tmp_path)
    monkeypatch.setattr(library_module, "library", lambda: sneaky)  # the library `paperkg query` loads
    return sneaky


def test_a_library_query_that_writes_fails_and_changes_nothing(one_paper, sneaky_library):
    before = graph(one_paper)
    with pytest.raises(ClientError, match="read access mode"):
        sneaky_library.run(one_paper, "sneaky", title="changed")
    assert graph(one_paper) == before


def test_paperkg_query_with_a_write_clause_exits_2_with_one_line_and_changes_nothing(one_paper, sneaky_library, capfd):
    before = graph(one_paper)
    assert cli.main(["query", "sneaky", "-p", "title=changed"]) == 2
    out, err = capfd.readouterr()
    assert out == ""
    assert err.startswith("paperkg: error: Neo4j refused the request: Writing in read access mode not allowed")
    assert len(err.strip().splitlines()) == 1
    assert graph(one_paper) == before
    assert count(one_paper, "Paper") == 1


# -- ad-hoc Cypher reads the graph and nothing else (issue 21) -------------------------------

REFUSED = [
    ("TERMINATE TRANSACTIONS 'neo4j-transaction-1'", "TERMINATE TRANSACTIONS"),
    (
        "SHOW TRANSACTIONS YIELD transactionId AS id TERMINATE TRANSACTIONS id YIELD message RETURN message",
        "TERMINATE TRANSACTIONS",
    ),
    ("CALL dbms.killConnection('bolt-1')", "procedure dbms.killConnection"),
    ("CALL dbms.killConnections(['bolt-1'])", "procedure dbms.killConnections"),
    ("LOAD CSV FROM 'http://127.0.0.1:9/x.csv' AS row RETURN row", "LOAD CSV"),
    ("CALL db.clearQueryCaches()", "procedure db.clearQueryCaches"),
    ("CALL db.stats.retrieve('GRAPH COUNTS')", "procedure db.stats.retrieve"),
    ("CALL db.stats.collect('QUERIES')", "procedure db.stats.collect"),
    ("CALL db.stats.clear('QUERIES')", "procedure db.stats.clear"),
    ("CALL db.resampleIndex('paper_id')", "procedure db.resampleIndex"),
    ("CALL db.resampleOutdatedIndexes()", "procedure db.resampleOutdatedIndexes"),
    ("SHOW USERS", "administration commands"),
    ("MATCH (p:Paper) CALL db.clearQueryCaches() YIELD value RETURN value", "procedure db.clearQueryCaches"),
]


@pytest.mark.parametrize(("statement", "what"), REFUSED, ids=[s for s, _ in REFUSED])
def test_ad_hoc_cypher_refuses_what_acts_on_the_server(one_paper, statement, what):
    with pytest.raises(ReadOnlyViolation) as refused:
        one_paper.cypher(statement)
    assert str(refused.value).startswith(f"kb.cypher() only reads the graph and refuses {what}")


def test_ad_hoc_cypher_cannot_terminate_another_transaction(one_paper):
    with open_transaction(one_paper, "MATCH (p:Paper) SET p.held = true"):
        (row,) = one_paper.cypher(
            "SHOW TRANSACTIONS YIELD transactionId, currentQuery "
            "WHERE currentQuery = '' RETURN collect(transactionId) AS ids"
        )
        with pytest.raises(ReadOnlyViolation):
            one_paper.cypher("TERMINATE TRANSACTIONS $ids", ids=row["ids"])
        statuses = one_paper.cypher("SHOW TRANSACTIONS YIELD status RETURN collect(status) AS s")[0]["s"]
        assert not any(status.startswith("Terminated") for status in statuses)


@pytest.mark.parametrize(
    ("statement", "rows"),
    [
        ("MATCH (p:Paper) RETURN p.title AS title", [{"title": "Kept"}]),
        ("CALL db.labels() YIELD label WHERE label = 'Paper' RETURN label", [{"label": "Paper"}]),
        ("SHOW INDEXES YIELD name WHERE name = 'no such index' RETURN name", []),
        ("EXPLAIN MATCH (p:Paper) RETURN p", []),
        ("PROFILE MATCH (p:Paper) RETURN count(p) AS n", [{"n": 1}]),
    ],
)
def test_ad_hoc_cypher_still_reads(one_paper, statement, rows):
    assert one_paper.cypher(statement) == rows


def test_the_managed_server_never_fetches_a_url_for_load_csv(one_paper):
    requests = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            requests.append(self.path)
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"a,b\n1,2\n")

        def log_message(self, *args):
            pass

    with http.server.HTTPServer(("127.0.0.1", 0), Handler) as server:
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{server.server_port}/data.csv"
        try:
            # With write access, past kb.cypher(): the server's block list is what refuses it.
            with pytest.raises(ClientError, match="cypher_ip_blocklist"):
                one_paper.execute("LOAD CSV FROM $url AS row RETURN count(row) AS n", url=url)
        finally:
            server.shutdown()
    assert requests == []


def test_the_managed_home_and_its_store_are_the_owners_alone(neo4j_instance):
    home = neo4j_instance.home
    assert stat.S_IMODE(home.stat().st_mode) == 0o700
    exposed = [str(path) for path in (home / "data").rglob("*") if path.stat().st_mode & 0o077]
    assert exposed == [] and any((home / "data" / "databases" / "system").iterdir())


# -- URIs the driver cannot use, and settings that would be ignored ----------------------------


@pytest.mark.parametrize(
    ("uri", "shown"),
    [
        ("http://127.0.0.1:7474", "http://127.0.0.1:7474 (scheme http://)"),
        ("bolt+x://db.example:7687", "bolt+x://db.example:7687 (scheme bolt+x://)"),
        ("127.0.0.1:7687", "127.0.0.1:7687 (no scheme)"),
    ],
)
def test_a_uri_without_a_bolt_scheme_is_one_line_naming_the_schemes_that_work(uri, shown):
    result = run("stats", env=environment(NEO4J_URI=uri, NEO4J_PASSWORD="pa55"))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.splitlines() == [
        f"paperkg: error: paperkg cannot use the Neo4j URI {shown}: give one with bolt://, bolt+s://, "
        "bolt+ssc://, neo4j://, neo4j+s://, neo4j+ssc://, e.g. bolt://127.0.0.1:7687"
    ]


def test_a_password_without_a_uri_is_warned_about(neo4j_instance):
    result = run("stats", "--json", env=environment(NEO4J_URI=None, NEO4J_PASSWORD=WRONG))
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines() == [
        f"paperkg: warning: NEO4J_PASSWORD is set but NEO4J_URI is not: using the managed Neo4j in "
        f"{neo4j_instance.home} with its own password (set NEO4J_URI to use another server)"
    ]
    assert WRONG not in result.stderr
