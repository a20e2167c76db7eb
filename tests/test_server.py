"""The managed Neo4j: starts without Docker, serves Bolt and Browser, keeps its password secret."""

from __future__ import annotations

import stat
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from paperkg.cli import main
from paperkg.cypher_files import statements
from paperkg.dirs import keep, user_cache_dir
from paperkg.load.schema import apply_schema, schema_names
from paperkg.server import Instance, Memory, ServerError, port_is_free


def test_bolt_answers_return_1(session_kb):
    assert session_kb.cypher("RETURN 1 AS one") == [{"one": 1}]


def test_server_is_neo4j_5_26_community(session_kb):
    (row,) = session_kb.cypher("CALL dbms.components() YIELD name, versions, edition RETURN *")
    assert row["name"] == "Neo4j Kernel"
    assert row["versions"][0].startswith("5.26.")
    assert row["edition"] == "community"


def test_http_port_serves_neo4j_browser(neo4j_instance):
    with urllib.request.urlopen(neo4j_instance.browser_url, timeout=10) as response:
        body = response.read().decode()
    assert response.status == 200
    assert "<title>Neo4j Browser</title>" in body


def test_schema_has_a_constraint_for_every_key(session_kb):
    rows = session_kb.cypher("SHOW CONSTRAINTS YIELD labelsOrTypes, properties, type")
    keys = {(row["labelsOrTypes"][0], row["properties"][0]) for row in rows if row["type"] == "UNIQUENESS"}
    assert {
        ("Paper", "paper_id"),
        ("Paper", "arxiv_id"),
        ("Paper", "doi"),
        ("Claim", "claim_id"),
        ("Source", "source_id"),
    } <= keys
    indexes = session_kb.cypher("SHOW INDEXES YIELD labelsOrTypes, properties, state")
    assert {"labelsOrTypes": ["Paper"], "properties": ["title_norm"], "state": "ONLINE"} in indexes


def test_applying_the_schema_again_creates_the_index_it_lacks(kb):
    def online() -> set[str]:
        return {row["name"] for row in kb.read("schema_online")}

    assert len(schema_names()) == len(statements("schema")) and schema_names() <= online()
    kb.execute("DROP INDEX claim_status")
    assert "claim_status" not in online()
    apply_schema(kb)
    assert schema_names() <= online()
    assert kb.cypher("SHOW INDEXES YIELD name, properties WHERE name = 'claim_status' RETURN properties") == [
        {"properties": ["status"]}
    ]


def test_start_twice_is_harmless(neo4j_instance, capsys):
    pid = neo4j_instance.pid()
    assert main(["db", "start", "--home", str(neo4j_instance.home)]) == 0
    assert "already running" in capsys.readouterr().out
    assert neo4j_instance.pid() == pid


def test_status_exit_codes_and_what_a_running_server_was_started_with(neo4j_instance, tmp_path, capsys):
    assert main(["db", "status", "--home", str(neo4j_instance.home)]) == 0
    memory = neo4j_instance.memory()
    assert (
        f", heap {memory.heap}, page cache {memory.pagecache}, home {neo4j_instance.home}\n" in capsys.readouterr().out
    )
    assert main(["db", "status", "--home", str(tmp_path)]) == 3
    assert "stopped" in capsys.readouterr().out


def test_password_file_is_private_and_never_printed(neo4j_instance, capfd):
    mode = stat.S_IMODE(neo4j_instance.password_file.stat().st_mode)
    assert mode == 0o600
    password = neo4j_instance.password()
    assert len(password) >= 24
    main(["db", "start", "--home", str(neo4j_instance.home)])
    main(["db", "status", "--home", str(neo4j_instance.home)])
    captured = capfd.readouterr()
    assert password not in captured.out + captured.err
    for log in (neo4j_instance.home / "logs").iterdir():
        assert password not in log.read_text(errors="replace"), log


def test_server_listens_on_loopback_only(neo4j_instance):
    ports = neo4j_instance.ports()
    listening = subprocess.run(["ss", "-Hltn"], capture_output=True, text=True).stdout
    ours = [
        line
        for line in listening.splitlines()
        if line.split()[3].rsplit(":", 1)[1] in {str(ports.bolt), str(ports.http)}
    ]
    assert len(ours) == 2, listening
    # Java may bind an IPv6 socket to the IPv4-mapped loopback address; both are loopback only.
    addresses = {line.split()[3].rsplit(":", 1)[0] for line in ours}
    assert addresses <= {"127.0.0.1", "[::ffff:127.0.0.1]"}, ours


def test_port_in_use_is_named_in_the_error(neo4j_instance, tmp_path):
    busy = neo4j_instance.ports().bolt
    with pytest.raises(ServerError, match=f"Bolt port {busy} .* already in use.*--bolt-port"):
        Instance(tmp_path).start(bolt_port=busy, http_port=busy + 1)


def test_a_running_server_is_started_again_only_with_its_own_ports_and_sizes(neo4j_instance):
    ports, memory = neo4j_instance.ports(), neo4j_instance.memory()
    assert neo4j_instance.start() is False  # already running: nothing asked to change
    assert neo4j_instance.start(bolt_port=ports.bolt, heap=memory.heap, pagecache=memory.pagecache) is False
    with pytest.raises(ServerError, match=f"already running on Bolt {ports.bolt} .*stop it first to change ports"):
        neo4j_instance.start(bolt_port=ports.bolt + 1)
    other = "3g" if memory.heap != "3g" else "2g"
    with pytest.raises(ServerError, match=f"running with heap {memory.heap} and .*stop it first to change them"):
        neo4j_instance.start(heap=other)
    assert neo4j_instance.memory() == memory and neo4j_instance.is_running()


def test_second_instance_runs_side_by_side_and_stops_cleanly(neo4j_instance, tmp_path):
    from conftest import free_port

    other = Instance(tmp_path / "other")
    bolt, http = free_port(), free_port()
    assert other.start(bolt_port=bolt, http_port=http, heap="512m", pagecache="64m")
    pid = other.pid()
    assert other.ports().bolt == bolt and neo4j_instance.is_running()
    assert other.stop()
    assert not other.pid_file.exists()
    assert not Path(f"/proc/{pid}").exists()
    assert port_is_free(bolt)
    assert other.stop() is False


def test_a_home_keeps_the_sizes_of_its_last_start_and_one_that_recorded_none_has_the_defaults(tmp_path):
    home = Instance(tmp_path)
    assert home.memory() == Memory("1g", "512m")  # never started
    home.state_file.write_text('{"bolt_port": 7687, "http_port": 7474, "neo4j_version": "5.26.16"}')
    assert home.memory() == Memory("1g", "512m")  # started by a release that recorded no sizes
    home.state_file.write_text('{"bolt_port": 7687, "http_port": 7474, "heap": "4g", "pagecache": "12g"}')
    assert home.memory() == Memory("4g", "12g")


def test_corrupt_instance_state_is_a_clear_error(tmp_path, capsys):
    (tmp_path / "instance.json").write_text("{half-written")
    assert main(["db", "start", "--home", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "instance.json is corrupt" in err and "Traceback" not in err


def test_missing_java_is_one_line_and_exit_2(tmp_path):
    env = {"PATH": "/nonexistent", "PAPERKG_HOME": str(tmp_path), "HOME": str(tmp_path)}
    result = subprocess.run(
        [sys.executable, "-m", "paperkg.cli", "db", "start"], env=env, capture_output=True, text=True
    )
    assert result.returncode == 2
    assert result.stderr.strip() == (
        "paperkg: error: Java is not on PATH: install a JDK 17 (apt-get install openjdk-17-jdk-headless)"
    )


def test_a_cache_file_is_written_whole_and_one_that_cannot_be_written_is_no_error(tmp_path):
    keep(tmp_path / "cache" / "classpath.txt", b"a.jar:b.jar")
    assert [path.name for path in (tmp_path / "cache").iterdir()] == ["classpath.txt"]  # no temporary left
    assert (tmp_path / "cache" / "classpath.txt").read_bytes() == b"a.jar:b.jar"
    (tmp_path / "a-file").write_text("")
    keep(tmp_path / "a-file" / "classpath.txt", b"a.jar")  # its directory cannot be made
    assert sorted(path.name for path in tmp_path.iterdir()) == ["a-file", "cache"]


def test_the_managed_servers_classpath_is_kept_per_user_and_read_without_maven(neo4j_instance, monkeypatch):
    classpath = neo4j_instance.classpath()
    (kept,) = user_cache_dir().glob("neo4j-classpath-*.txt")
    assert kept.read_text() == classpath
    monkeypatch.setenv("PATH", "/nonexistent")  # no `mvn`
    assert Instance(neo4j_instance.home.parent / "another").classpath() == classpath
    kept.write_text(classpath + ":/nonexistent/gone.jar")  # ~/.m2 lost a jar: resolve again
    with pytest.raises(ServerError, match=r"Maven \(`mvn`\) is not on PATH"):
        Instance(neo4j_instance.home.parent / "another").classpath()
    kept.write_text(classpath)
