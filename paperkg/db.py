"""Connection settings and the driver's lifecycle. Nothing here connects at import time.

Settings come from the standard Neo4j variables (``NEO4J_URI``, ``NEO4J_USERNAME``,
``NEO4J_PASSWORD``, ``NEO4J_DATABASE``). Without ``NEO4J_URI`` paperkg uses the managed
local server in ``PAPERKG_HOME`` and starts it when needed.
"""

from __future__ import annotations

import logging
import os
import time
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from neo4j import Driver, GraphDatabase, RoutingControl, Session
from neo4j.exceptions import AuthError, ClientError, ServiceUnavailable

from paperkg.cypher_files import statement, statements
from paperkg.errors import PaperkgError
from paperkg.library import Queries, Result, library
from paperkg.progress import note
from paperkg.readonly import check_read_only, writes_refused
from paperkg.server import Instance, ServerError

log = logging.getLogger("paperkg")
# The Bolt schemes the driver speaks without extra packages (its http scheme needs aiohttp
# and is a preview); `+s` verifies the server's certificate, `+ssc` accepts a self-signed one.
SCHEMES = ("bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc")
# A server that is stopped (SIGSTOP) accepts TCP connections but never answers: these bound how
# long a client waits for it. Opening a connection (TCP, then the Bolt handshake, which waits
# up to the acquisition timeout), and retrying a transaction that lost its connection (the
# managed server's keep-alive hint ends a silent connection after 20 s; see server.py).
CONNECTION_TIMEOUT = 5.0
ACQUISITION_TIMEOUT = 10.0
RETRY_TIME = 15.0


class ConnectionFailed(PaperkgError):
    """Neo4j could not be reached or refused the credentials. Never carries the password."""


@dataclass(frozen=True)
class Settings:
    uri: str
    auth: tuple[str, str]
    database: str | None
    managed: Instance | None = None

    def __repr__(self) -> str:  # the password stays out of reprs, logs and tracebacks
        return f"Settings(uri={self.uri!r}, user={self.auth[0]!r}, database={self.database!r})"

    @classmethod
    def resolve(
        cls,
        uri: str | None = None,
        auth: tuple[str, str] | None = None,
        database: str | None = None,
        home: str | None = None,
    ) -> Settings:
        uri = uri or os.environ.get("NEO4J_URI")
        database = database or os.environ.get("NEO4J_DATABASE") or None
        if uri:
            _refuse_credentials_in(uri)
            _check_scheme(uri)
            if auth is None:
                auth = (os.environ.get("NEO4J_USERNAME", "neo4j"), os.environ.get("NEO4J_PASSWORD", ""))
            return cls(uri=uri, auth=auth, database=database)
        instance = Instance(home)
        if auth is None and os.environ.get("NEO4J_PASSWORD"):
            log.warning(
                "NEO4J_PASSWORD is set but NEO4J_URI is not: using the managed Neo4j in %s "
                "with its own password (set NEO4J_URI to use another server)",
                instance.home,
            )
        return cls(uri=instance.bolt_uri, auth=auth or ("neo4j", ""), database=database, managed=instance)


def _refuse_credentials_in(uri: str) -> None:
    """The driver rejects `scheme://user:password@host` and quotes the whole URI, password and
    all, in its error; refuse it here naming the host only."""
    rest = uri.partition("://")[2]
    if "@" in rest:  # anywhere: a password may hold an unescaped `/`
        host = rest.rpartition("@")[2].partition("/")[0]
        raise ConnectionFailed(
            f"the Neo4j URI must not carry credentials (…@{host}): set NEO4J_USERNAME and NEO4J_PASSWORD instead"
        )


def _check_scheme(uri: str) -> None:
    scheme, separator, rest = uri.partition("://")
    if separator and scheme.lower() in SCHEMES:
        return
    address = (rest if separator else uri).rpartition("@")[2]  # never the credentials
    shown, problem = (f"{scheme}://{address}", f"scheme {scheme}://") if separator else (address, "no scheme")
    raise ConnectionFailed(
        f"paperkg cannot use the Neo4j URI {shown} ({problem}): give one with "
        f"{', '.join(name + '://' for name in SCHEMES)}, e.g. bolt://127.0.0.1:7687"
    )


def open_driver(settings: Settings, start: bool = True) -> Driver:
    """A verified driver. Starts the managed server first when it is used and not running."""
    if settings.managed is not None:
        instance = settings.managed
        if instance.is_running() and instance.staged_orphan():
            # An offline import stopped after its new store was complete: the start below serves
            # it, on the same ports, as the import's own restart would have.
            note(
                f"an offline import into {instance.home} stopped before its graph was served: restarting Neo4j to serve it"
            )
            instance.stop()
        elif not instance.is_running():
            if not start:
                raise ConnectionFailed(f"the managed Neo4j in {instance.home} is not running: run `paperkg db start`")
            note(
                f"the managed Neo4j in {instance.home} is not running (NEO4J_URI is unset): starting it; "
                "`paperkg db stop` stops it"
            )
        if not instance.is_running():
            try:
                instance.start()
            except ServerError as exc:
                raise ConnectionFailed(str(exc)) from None
        settings = Settings(uri=instance.bolt_uri, auth=instance.auth(), database=settings.database, managed=instance)
    # Notifications (such as "label does not exist" on an empty graph) are advice for
    # query authors; the library is tested, so users never see them.
    driver = GraphDatabase.driver(
        settings.uri,
        auth=settings.auth,
        notifications_min_severity="OFF",
        connection_timeout=CONNECTION_TIMEOUT,
        connection_acquisition_timeout=ACQUISITION_TIMEOUT,
        max_transaction_retry_time=RETRY_TIME,
    )
    try:
        driver.verify_connectivity()
    except AuthError:
        driver.close()
        raise ConnectionFailed(
            f"Neo4j at {settings.uri} refused the credentials of user "
            f"{settings.auth[0]!r} (check NEO4J_USERNAME / NEO4J_PASSWORD)"
        ) from None
    except ClientError as exc:
        driver.close()
        if exc.code != "Neo.ClientError.Security.AuthenticationRateLimit":
            raise
        raise ConnectionFailed(
            f"Neo4j at {settings.uri} refuses logins of user {settings.auth[0]!r} for a few "
            "seconds after too many wrong passwords; check NEO4J_PASSWORD and retry"
        ) from None
    except (ServiceUnavailable, OSError, ValueError) as exc:
        driver.close()
        raise ConnectionFailed(f"cannot reach Neo4j at {settings.uri}: {first_line(exc)}") from None
    return driver


def first_line(exc: BaseException) -> str:
    """The message's first line (with the next one where the first ends in a colon, as the
    driver's "Couldn't connect to …:" does before saying why)."""
    text = [line.strip() for line in str(exc).strip().splitlines()]
    if not text:
        return exc.__class__.__name__
    return f"{text[0]} {text[1]}" if text[0].endswith(":") and len(text) > 1 else text[0]


class KnowledgeBase:
    """A connection to paperkg's graph: library queries, ad-hoc reads, and ingestion."""

    def __init__(self, driver: Driver, database: str | None = None, settings: Settings | None = None):
        self.driver = driver
        self.database = database
        self.settings = settings

    def __enter__(self) -> KnowledgeBase:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<KnowledgeBase {self.settings!r}>"

    @property
    def managed(self) -> Instance | None:
        """The managed server this connects to; None for a server NEO4J_URI names."""
        return self.settings.managed if self.settings else None

    def close(self) -> None:
        self.driver.close()

    def reconnect(self) -> None:
        """A new driver, for a database whose store was replaced (an offline import swapped in):
        the old driver's bookmarks name transactions of the store that is gone, which the new
        one never reaches."""
        if self.settings is None:
            raise ConnectionFailed("this knowledge base was opened on a driver of its own: connect again")
        self.driver.close()
        self.driver = open_driver(self.settings)

    def session(self, **config: Any) -> Session:
        """A session on this knowledge base's database, for managed write transactions
        (`session.execute_write`, which retries on transient errors). It shares the bookmarks of
        `execute_query`, so on a cluster a read routed to a reader after a write waits until
        that reader has the write (causal consistency), whichever API made either."""
        return self.driver.session(
            database=self.database, bookmark_manager=self.driver.execute_query_bookmark_manager, **config
        )

    def query(self, name: str, /, **params: Any) -> Result:
        """Run the library query `name` (see `paperkg query --list`); rows as dicts, `.to_df()`."""
        return library().run(self, name, **params)

    @cached_property
    def queries(self) -> Queries:
        """The library's queries as functions on this knowledge base: `kb.queries.ancestors(paper=...)`."""
        return library().functions(self)

    def cypher(self, statement: str, **parameters: Any) -> list[dict[str, Any]]:
        """Run ad-hoc Cypher that reads the graph; rows as dicts. Anything else is refused with
        ReadOnlyViolation: administration commands, LOAD CSV and procedures outside an
        allow-list by paperkg before the statement runs (see paperkg.readonly), writes by the
        server, which runs it in a read transaction."""
        check_read_only(self.driver, self.database, statement, parameters)
        with writes_refused():
            return self._read(statement, parameters)

    def read(self, name: str, /, **parameters: Any) -> list[dict[str, Any]]:
        """Run paperkg's own reading statement `name` (cypher/NAME.cypher); rows as dicts. It
        skips `cypher`'s plan check, a second round trip that a statement of paperkg's own,
        which only reads, does not need."""
        return self._read(statement(name), parameters)

    def _read(self, text: str, parameters: dict[str, Any]) -> list[dict[str, Any]]:
        records, _, _ = self.driver.execute_query(
            text,
            parameters,
            database_=self.database,
            routing_=RoutingControl.READ,
        )
        return [record.data() for record in records]

    def execute(self, statement: str, **parameters: Any) -> list[dict[str, Any]]:
        """Run Cypher with write access (schema, maintenance); rows as dicts."""
        records, _, _ = self.driver.execute_query(
            statement,
            parameters,
            database_=self.database,
            routing_=RoutingControl.WRITE,
        )
        return [record.data() for record in records]

    def warm(self) -> list[dict[str, Any]]:
        """Read what the library's queries read, so that the server's page cache holds it (a
        large graph after a start; see cypher/warm.cypher): per part, the records and property
        values read and the seconds it took. On a cluster it warms the member a read reaches."""
        parts = []
        for text in statements("warm"):
            started = time.perf_counter()
            (row,) = self._read(text, {})
            parts.append({**row, "seconds": time.perf_counter() - started})
        return parts

    def stats(self) -> dict[str, dict[str, int]]:
        """Node counts per label and relationship counts per type."""
        out: dict[str, dict[str, int]] = {"nodes": {}, "relationships": {}}
        for row in self.read("stats"):
            out["nodes" if row["kind"] == "node" else "relationships"][row["name"]] = row["count"]
        return out

    def reset(self) -> None:
        """Delete every node and relationship in the database (schema stays)."""
        with self.session() as session:
            session.run(statement("reset")).consume()


def connect(
    uri: str | None = None,
    auth: tuple[str, str] | None = None,
    database: str | None = None,
    home: str | None = None,
    start: bool = True,
) -> KnowledgeBase:
    """Connect to the configured Neo4j (or the managed local one, started when needed)."""
    settings = Settings.resolve(uri=uri, auth=auth, database=database, home=home)
    return KnowledgeBase(open_driver(settings, start=start), settings.database, settings)
