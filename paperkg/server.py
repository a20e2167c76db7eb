"""The project-managed local Neo4j: assembled from Maven Central, run from an instance home.

An instance home (``PAPERKG_HOME``) holds everything one server needs::

    instance.json   ports chosen at the last start, so later commands find the server
    password        generated on first start, mode 0600, never printed
    conf/ data/ logs/ run/ import/ plugins/

What every home shares is kept once per user, in its cache directory (dirs.user_cache_dir): the
jars' classpath as Maven resolved it (the jars themselves are in ~/.m2) and the compiled Browser
extension. Two homes with different ports run side by side; the test suite uses its own.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
import shutil
import signal
import socket
import stat
import subprocess
import tempfile
import time
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from paperkg.dirs import keep, user_cache_dir
from paperkg.errors import PaperkgError
from paperkg.progress import waiting
from paperkg.write_steps import write_step

from . import browser_guide

NEO4J_VERSION = "5.26.16"
DEFAULT_BOLT_PORT = 7687
DEFAULT_HTTP_PORT = 7474
DEFAULT_HEAP = "1g"
DEFAULT_PAGECACHE = "512m"
LOOPBACK = "127.0.0.1"
ENTRY_POINT = "org.neo4j.server.CommunityEntryPoint"
# The options Neo4j's own launcher passes by default (its neo4j.conf's server.jvm.additional),
# so the managed server runs as an installed one would.
JVM_DEFAULTS = [
    "-XX:+UseG1GC",
    "-XX:-OmitStackTraceInFastThrow",
    "-XX:+AlwaysPreTouch",
    "-XX:+UnlockExperimentalVMOptions",
    "-XX:+TrustFinalNonStaticFields",
    "-XX:+DisableExplicitGC",
    "-Djdk.nio.maxCachedBufferSize=1024",
    "-Dio.netty.tryReflectionSetAccessible=true",
    "-Dlog4j2.disable.jmx=true",
]
# Neo4j 5 on JDK 17 needs these opened; without them the page cache and Netty fail at runtime.
JVM_OPENS = [
    "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "--add-opens=java.base/java.lang=ALL-UNNAMED",
]
INITIAL_PASSWORD = "neo4j"
# The home and everything the server writes are the owner's alone: the store holds the graph
# and, in the system database, the password's hash.
HOME_MODE = 0o700
SERVER_UMASK = 0o077
HOME_SUBDIRECTORIES = ("conf", "data", "logs", "run", "import", "plugins")
# The database paperkg serves, and the one an offline import builds beside it (never served):
# the next start swaps a complete staged store in (Instance.stage_complete), so the served graph
# is the old one or the whole new one, never a half-imported store.
DATABASE = "neo4j"
STAGING_DATABASE = "paperkg-staging"


class ServerError(PaperkgError):
    """The managed server could not be set up, started or reached; the message says what to do."""


@dataclass(frozen=True)
class Ports:
    bolt: int = DEFAULT_BOLT_PORT
    http: int = DEFAULT_HTTP_PORT


@dataclass(frozen=True)
class Memory:
    """The server's JVM heap and page cache, as Neo4j's size settings write them ('1g', '512m')."""

    heap: str = DEFAULT_HEAP
    pagecache: str = DEFAULT_PAGECACHE


def default_home() -> Path:
    env = os.environ.get("PAPERKG_HOME")
    if env:
        return Path(env).expanduser().resolve()
    data_home = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return (Path(data_home) / "paperkg").resolve()


class Instance:
    """One managed Neo4j server and its home directory."""

    def __init__(self, home: Path | str | None = None):
        self.home = Path(home).expanduser().resolve() if home else default_home()

    # -- files in the home ---------------------------------------------------------------

    @property
    def pid_file(self) -> Path:
        return self.home / "run" / "paperkg-neo4j.pid"

    @property
    def password_file(self) -> Path:
        return self.home / "password"

    @property
    def state_file(self) -> Path:
        return self.home / "instance.json"

    @property
    def console_log(self) -> Path:
        return self.home / "logs" / "console.log"

    @property
    def staged_file(self) -> Path:
        """Present from when a staged store is complete until it is served."""
        return self.home / "data" / "staged-import.json"

    def store(self, database: str) -> list[Path]:
        """A database's store and transaction log directories."""
        data = self.home / "data"
        return [data / "databases" / database, data / "transactions" / database]

    def ports(self) -> Ports:
        """The ports recorded at the last start (defaults for a new home)."""
        state = self._state()
        if state is None:
            return Ports()
        try:
            return Ports(bolt=int(state["bolt_port"]), http=int(state["http_port"]))
        except (ValueError, KeyError, TypeError) as exc:
            raise self._corrupt(exc) from None

    def memory(self) -> Memory:
        """The heap and page cache of the last start (defaults for a new home, or one whose last
        start recorded none): a restart, by paperkg or by hand, keeps what `db start` was given."""
        state = self._state()
        if state is None:
            return Memory()
        try:
            return Memory(
                heap=str(state.get("heap", DEFAULT_HEAP)), pagecache=str(state.get("pagecache", DEFAULT_PAGECACHE))
            )
        except AttributeError as exc:  # not an object
            raise self._corrupt(exc) from None

    def _state(self) -> Any:
        """instance.json as written at the last start, or None for a home not started yet."""
        try:
            return json.loads(self.state_file.read_text())
        except FileNotFoundError:
            return None
        except ValueError as exc:
            raise self._corrupt(exc) from None

    def _corrupt(self, exc: Exception) -> ServerError:
        return ServerError(
            f"{self.state_file} is corrupt ({exc.__class__.__name__}); remove it and run `paperkg db start` again"
        )

    @property
    def bolt_uri(self) -> str:
        return f"bolt://{LOOPBACK}:{self.ports().bolt}"

    @property
    def browser_url(self) -> str:
        return f"http://{LOOPBACK}:{self.ports().http}/browser/"

    def password(self) -> str:
        try:
            return self.password_file.read_text().strip()
        except FileNotFoundError:
            raise ServerError(f"no password in {self.home}: start the server once with `paperkg db start`") from None

    def auth(self) -> tuple[str, str]:
        return ("neo4j", self.password())

    # -- process state -------------------------------------------------------------------

    def pid(self) -> int | None:
        """The server's process id, or None when it is not running (a stale PID file is removed)."""
        try:
            pid = int(self.pid_file.read_text().strip())
        except (FileNotFoundError, ValueError):
            self.pid_file.unlink(missing_ok=True)
            return None
        if not _is_our_server(pid, self.home):
            self.pid_file.unlink(missing_ok=True)
            return None
        return pid

    def is_running(self) -> bool:
        return self.pid() is not None

    # -- an offline import's staged store --------------------------------------------------

    def stage_complete(self, writer: int) -> None:
        """Record that the staging database is a complete store, written by process `writer`:
        from here on, a start serves it instead of the current graph."""
        record = {"staging": STAGING_DATABASE, "pid": writer, "process_start": process_start(writer)}
        partial = self.staged_file.with_suffix(".partial")
        partial.write_text(json.dumps(record) + "\n")
        partial.replace(self.staged_file)  # atomic: the record is whole or absent

    def staged_orphan(self) -> bool:
        """Whether a complete staged store waits to be served and the process that staged it is
        gone, so that nobody else is about to restart the server to serve it."""
        try:
            record = json.loads(self.staged_file.read_text())
        except FileNotFoundError:
            return False
        pid = record["pid"]
        return not process_alive(pid) or process_start(pid) != record["process_start"]

    def _serve_staged(self) -> None:
        """With the server stopped: a complete staged store replaces the served one, each step
        safe to repeat, so a start after a crash at any of them completes the swap. A staging
        store no complete import recorded is a leftover of one that stopped, and goes."""
        if not self.staged_file.exists():
            for directory in self.store(STAGING_DATABASE):
                shutil.rmtree(directory, ignore_errors=True)
            return
        for staged, served in zip(self.store(STAGING_DATABASE), self.store(DATABASE), strict=True):
            if staged.exists():
                write_step()
                shutil.rmtree(served, ignore_errors=True)
                staged.rename(served)
        write_step()
        self.staged_file.unlink()

    # -- start / stop ----------------------------------------------------------------------

    def start(
        self,
        bolt_port: int | None = None,
        http_port: int | None = None,
        heap: str | None = None,
        pagecache: str | None = None,
        timeout: float = 180.0,
    ) -> bool:
        """Start the server and return once Bolt answers. Returns False when it was already running.
        A port or size not given is the last start's (Instance.ports, Instance.memory)."""
        current = self.ports()
        ports = Ports(bolt=bolt_port or current.bolt, http=http_port or current.http)
        last = self.memory()
        memory = Memory(heap=heap or last.heap, pagecache=pagecache or last.pagecache)
        if self.is_running():
            if ports != current:
                raise ServerError(
                    f"the server in {self.home} is already running on Bolt {current.bolt} / "
                    f"HTTP {current.http}; stop it first to change ports"
                )
            if memory != last:
                raise ServerError(
                    f"the server in {self.home} is already running with heap {last.heap} and page cache "
                    f"{last.pagecache}; stop it first to change them"
                )
            self._wait_for_bolt(timeout, process=None)
            return False
        java = require_java()
        for name, port in (("Bolt", ports.bolt), ("HTTP", ports.http)):
            if not port_is_free(port):
                option = "--bolt-port" if name == "Bolt" else "--http-port"
                raise ServerError(
                    f"{name} port {port} on {LOOPBACK} is already in use; "
                    f"choose another with `paperkg db start {option} N`"
                )
        self._prepare_home(ports, memory)
        self._serve_staged()
        # plugins/* as in Neo4j's own launcher: unmanaged extensions load from the classpath.
        classpath = self.classpath() + os.pathsep + str(self.home / "plugins" / "*")
        command = [
            java,
            f"-Xms{memory.heap}",
            f"-Xmx{memory.heap}",
            *JVM_DEFAULTS,
            *JVM_OPENS,
            "-cp",
            classpath,
            ENTRY_POINT,
            f"--home-dir={self.home}",
            f"--config-dir={self.home / 'conf'}",
        ]
        with open(self.console_log, "ab") as console:
            process = subprocess.Popen(
                command,
                cwd=self.home,
                stdin=subprocess.DEVNULL,
                stdout=console,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                umask=SERVER_UMASK,
            )
        self.pid_file.write_text(f"{process.pid}\n")
        try:
            with waiting(f"starting Neo4j {NEO4J_VERSION} in {self.home}, waiting for Bolt on {LOOPBACK}:{ports.bolt}"):
                self._wait_for_bolt(timeout, process)
                self._ensure_password()
        except BaseException:
            self.stop()
            raise
        return True

    def stop(self, timeout: float = 60.0) -> bool:
        """Stop the server (SIGTERM, then SIGKILL after timeout). Returns False when it was not running."""
        pid = self.pid()
        if pid is None:
            return False
        _signal(pid, signal.SIGTERM)
        deadline = time.monotonic() + timeout
        while process_alive(pid) and time.monotonic() < deadline:
            time.sleep(0.2)
        if process_alive(pid):
            _signal(pid, signal.SIGKILL)
            while process_alive(pid):
                time.sleep(0.1)
        self.pid_file.unlink(missing_ok=True)
        return True

    # -- internals -----------------------------------------------------------------------

    def _prepare_home(self, ports: Ports, memory: Memory) -> None:
        for sub in HOME_SUBDIRECTORIES:
            (self.home / sub).mkdir(parents=True, exist_ok=True)
        self._restrict_home()
        state = {
            "bolt_port": ports.bolt,
            "http_port": ports.http,
            "heap": memory.heap,
            "pagecache": memory.pagecache,
            "neo4j_version": NEO4J_VERSION,
        }
        self.state_file.write_text(json.dumps(state, indent=2) + "\n")
        directories = {name: self.home / name for name in ("data", "logs", "run", "import", "plugins")}
        lines = [
            "# Written by paperkg at every start; edit paperkg/server.py instead.",
            f"server.default_listen_address={LOOPBACK}",
            f"server.default_advertised_address={LOOPBACK}",
            f"server.bolt.listen_address={LOOPBACK}:{ports.bolt}",
            f"server.bolt.advertised_address={LOOPBACK}:{ports.bolt}",
            f"server.http.listen_address={LOOPBACK}:{ports.http}",
            f"server.http.advertised_address={LOOPBACK}:{ports.http}",
            "server.https.enabled=false",
            # The server sends no usage data to Neo4j (Browser's is off in browser_guide's lines):
            # a local knowledge base reports nothing about itself, and may have no network.
            "dbms.usage_report.enabled=false",
            "dbms.security.auth_enabled=true",
            f"server.memory.pagecache.size={memory.pagecache}",
            # LOAD CSV reads only from the instance's import directory, never from the network:
            # the block list holds every IPv4 and IPv6 address (Neo4j 5 has it as an internal
            # setting only), so a query cannot make the server fetch a URL.
            "dbms.security.allow_csv_import_from_file_urls=true",
            "internal.dbms.cypher_ip_blocklist=0.0.0.0/0,::/0",
            # Keep-alive hints: the server tells each client to give up on a connection that
            # is silent for 2 × 10 s (it sends NOOPs while it works), so a client of a stopped
            # server fails in seconds; the default is 2 × 60 s.
            "server.bolt.connection_keep_alive_for_requests=ALL",
            "server.bolt.connection_keep_alive=10s",
            "server.bolt.connection_keep_alive_probes=2",
            "server.bolt.connection_keep_alive_streaming_scheduling_interval=5s",
            # Stopping: Bolt's network threads are shut down after the databases are stopped and
            # checkpointed, and Netty's default quiet period (5 s, twice) then only delays the exit.
            # Neo4j's own test servers set it to 0 as well.
            "internal.dbms.bolt.netty_server_shutdown_quiet_period=0",
            *(f"server.directories.{name}={path}" for name, path in directories.items()),
            # Neo4j Browser: serve paperkg's guide and style sheet, open them on connect.
            *browser_guide.server_config(self.home, ports.http, self.classpath),
        ]
        (self.home / "conf" / "neo4j.conf").write_text("\n".join(lines) + "\n")
        if not self.password_file.exists():
            # Written before the server first runs, so a crash between start and the
            # password change is recovered by the next start (see _ensure_password).
            fd = os.open(self.password_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w") as handle:
                handle.write(secrets.token_urlsafe(24) + "\n")
        os.chmod(self.password_file, 0o600)

    def _restrict_home(self) -> None:
        """Mode 0700 for the home, and no group or other access to what is in it (a home made
        before paperkg restricted it has 0644 store files in 0755 directories)."""
        os.chmod(self.home, HOME_MODE)
        for sub in HOME_SUBDIRECTORIES:
            for directory, _, files in os.walk(self.home / sub):
                for path in [directory, *(os.path.join(directory, name) for name in files)]:
                    mode = os.lstat(path).st_mode
                    if mode & 0o077 and not stat.S_ISLNK(mode):
                        os.chmod(path, stat.S_IMODE(mode) & ~0o077)

    def classpath(self) -> str:
        """The Neo4j jars (server, tools, Browser) as a classpath, resolved by Maven once per user
        and pom: the jars stay in ~/.m2 and the list in the user's cache directory, so another
        home starts without Maven. neo4j-admin runs from it too."""
        with resources.as_file(resources.files("paperkg") / "neo4j" / "pom.xml") as pom:
            cached = user_cache_dir() / f"neo4j-classpath-{hashlib.sha256(pom.read_bytes()).hexdigest()[:16]}.txt"
            try:
                classpath = cached.read_text().strip()
            except OSError:
                classpath = ""
            if classpath and all(Path(jar).exists() for jar in classpath.split(os.pathsep)):
                return classpath
            mvn = shutil.which("mvn")
            if mvn is None:
                raise ServerError("Maven (`mvn`) is not on PATH: install Maven 3 (apt-get install maven)")
            with (
                tempfile.TemporaryDirectory(prefix="paperkg-classpath-") as scratch,
                waiting(
                    f"resolving Neo4j {NEO4J_VERSION}'s jars with Maven (the first time downloads about 150 MB into ~/.m2)"
                ),
            ):
                resolved = Path(scratch) / "classpath.txt"
                result = subprocess.run(
                    [mvn, "-B", "-q", "-f", str(pom), "dependency:build-classpath", f"-Dmdep.outputFile={resolved}"],
                    capture_output=True,
                    text=True,
                )
                if result.returncode != 0 or not resolved.exists():
                    tail = "\n".join((result.stdout + result.stderr).strip().splitlines()[-15:])
                    raise ServerError(f"Maven could not fetch Neo4j {NEO4J_VERSION}:\n{tail}")
                classpath = resolved.read_text().strip()
        keep(cached, classpath.encode())
        return classpath

    def _wait_for_bolt(self, timeout: float, process: subprocess.Popen | None) -> None:
        port = self.ports().bolt
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if process is not None and process.poll() is not None:
                raise ServerError(f"Neo4j exited with code {process.returncode} during start.\n" + self.log_tail())
            if _bolt_answers(port):
                return
            time.sleep(0.3)
        raise ServerError(f"Neo4j did not answer on Bolt port {port} within {timeout:.0f} s.\n" + self.log_tail())

    def _ensure_password(self) -> None:
        """Replace the initial password with the generated one (first start only)."""
        from neo4j import GraphDatabase
        from neo4j.exceptions import AuthError, ServiceUnavailable

        password = self.password()
        deadline = time.monotonic() + 60
        while True:
            try:
                with GraphDatabase.driver(self.bolt_uri, auth=("neo4j", password)) as driver:
                    driver.verify_connectivity()
                return
            except AuthError:
                break
            except ServiceUnavailable:
                # Bolt's port opens a moment before the databases are available.
                if time.monotonic() > deadline:
                    raise ServerError(
                        "Neo4j accepted connections but never became available.\n" + self.log_tail()
                    ) from None
                time.sleep(0.5)
        try:
            with GraphDatabase.driver(self.bolt_uri, auth=("neo4j", INITIAL_PASSWORD)) as driver:
                driver.execute_query(
                    "ALTER CURRENT USER SET PASSWORD FROM $old TO $new",
                    old=INITIAL_PASSWORD,
                    new=password,
                    database_="system",
                )
        except AuthError:
            raise ServerError(
                f"the password in {self.password_file} does not open the database in {self.home}; "
                "the home is inconsistent: restore the password file or remove the home's data/ directory"
            ) from None

    def log_tail(self, lines: int = 20) -> str:
        out = []
        for log in (self.home / "logs" / "neo4j.log", self.console_log):
            if log.exists():
                text = log.read_text(errors="replace").splitlines()[-lines:]
                out.append(f"--- last lines of {log} ---\n" + "\n".join(text))
        return "\n".join(out) or f"(no log in {self.home / 'logs'})"


def require_java() -> str:
    """Path of a Java 17 or 21 runtime, or a ServerError saying what to install."""
    java = shutil.which("java")
    if java is None:
        raise ServerError("Java is not on PATH: install a JDK 17 (apt-get install openjdk-17-jdk-headless)")
    version = subprocess.run([java, "-version"], capture_output=True, text=True).stderr
    match = re.search(r'version "(\d+)(?:\.(\d+))?', version)
    major = int(match.group(1)) if match else 0
    if major == 1 and match and match.group(2):  # "1.8" style
        major = int(match.group(2))
    if major not in (17, 21):
        raise ServerError(
            f"Neo4j {NEO4J_VERSION} needs Java 17 or 21, but `java` is version {major or 'unknown'}: "
            "install a JDK 17 (apt-get install openjdk-17-jdk-headless) or put it first on PATH"
        )
    return java


def port_is_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        # As a server binds (Neo4j does): connections of a just-stopped server lingering in
        # TIME_WAIT do not hold the port, a process listening on it does.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((LOOPBACK, port))
        except OSError:
            return False
    return True


def _bolt_answers(port: int) -> bool:
    try:
        with socket.create_connection((LOOPBACK, port), timeout=1):
            return True
    except OSError:
        return False


def process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # our own child (the server this process started): reap it once it has exited
        reaped, _ = os.waitpid(pid, os.WNOHANG)
        return reaped == 0
    except ChildProcessError:
        pass
    # Another parent's process that has exited but is not yet reaped is gone for our purposes.
    # A JVM whose main thread has ended also shows state Z while its other threads still
    # run its shutdown hooks, so only a zombie with no threads left counts as gone.
    try:
        status = dict(
            line.split(":\t", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":\t" in line
        )
    except FileNotFoundError:
        return False
    return not (status.get("State", "").startswith("Z") and status.get("Threads", "1").strip() in ("0", "1"))


def process_start(pid: int) -> str | None:
    """When process `pid` started, as this boot's id and its start time in clock ticks: a pid
    reused by a later process has another. None where /proc does not tell (or it is gone)."""
    try:
        boot = Path("/proc/sys/kernel/random/boot_id").read_text().strip()
        # Field 22 of /proc/<pid>/stat, counted after the command name (which may hold spaces).
        ticks = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[19]
    except (OSError, IndexError):
        return None
    return f"{boot}:{ticks}"


def _is_our_server(pid: int, home: Path) -> bool:
    """True when pid is a live Neo4j started from this home (guards against PID reuse)."""
    if not process_alive(pid):
        return False
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except FileNotFoundError:
        return False
    return f"--home-dir={home}".encode() in cmdline


def _signal(pid: int, sig: int) -> None:
    try:
        os.kill(pid, sig)
    except ProcessLookupError:
        pass
