"""Neo4j Browser for paperkg: the style sheet, the guide, and serving both from the managed server.

The guide (``browser/guide/paperkg.html``) is generated from the query library, so its queries
and ``:param`` lines are the library's own: run ``python -m paperkg.browser_guide`` after changing a
query, and the test suite fails while the committed guide is stale.

Neo4j Browser only loads a guide (``:play URL``) or a style sheet (``:style URL``) over HTTP(S)
from a host in ``browser.remote_content_hostname_whitelist`` (the name Neo4j 5.26 still uses); it accepts no ``file:`` or ``data:``
URL, and Neo4j's HTTP server serves no files of its own choosing. So the managed instance serves
them from Neo4j's own HTTP server through a tiny unmanaged extension (``browser/extension/Files.java``,
a JAX-RS resource mounted at ``/paperkg``), compiled with the JDK's ``javac`` on the first start and
packed with the files into ``plugins/paperkg-browser.jar`` at every start. ``browser.post_connect_cmd``
then applies the style (inline, see server_config) and opens the guide each time Browser connects. Without ``javac`` the
extension is left out (a comment in neo4j.conf says so) and the files can still be loaded by hand.
"""

from __future__ import annotations

import hashlib
import html
import io
import json
import re
import shlex
import shutil
import subprocess
import tempfile
import zipfile
from collections.abc import Callable, Sequence
from importlib import resources
from pathlib import Path

from paperkg.cypher_files import statement
from paperkg.dirs import keep, user_cache_dir
from paperkg.errors import PaperkgError
from paperkg.package_data import data_folder
from paperkg.progress import waiting

MOUNT = "/paperkg"
PACKAGE = "org.paperkg.browser"
JAR_NAME = "paperkg-browser.jar"
GUIDE_NAME = "paperkg.html"
STYLE_NAME = "paperkg.grass"
SOURCE_MARK = "META-INF/paperkg-source.sha256"
HOST = "127.0.0.1"


class ExtensionError(PaperkgError):
    """Browser's extension could not be built, so the managed server cannot serve the guide."""


def files() -> resources.abc.Traversable:
    """The package's browser/ directory (package data: the repository's browser/)."""
    return data_folder("browser")


def style_text() -> str:
    return (files() / STYLE_NAME).read_text(encoding="utf-8")


GRASS_RULE = re.compile(r"(?P<selector>[\w.]+)\s*\{(?P<body>(?:'[^']*'|\"[^\"]*\"|[^}'\"])*)\}")
GRASS_PROPERTY = re.compile(
    r"(?P<key>[\w-]+)\s*:\s*(?:'(?P<single>[^']*)'|\"(?P<double>[^\"]*)\"|(?P<bare>[^;]*?))\s*;"
)


def style_json() -> str:
    """The style sheet as the JSON Browser keeps it ({selector: {property: value}}, quotes dropped),
    which Browser's `:style` also takes inline: applied at once, without fetching a URL."""
    rules = {}
    for rule in GRASS_RULE.finditer(style_text()):
        rules[rule["selector"]] = {
            item["key"]: next(v for v in item.group("single", "double", "bare") if v is not None)
            for item in GRASS_PROPERTY.finditer(rule["body"])
        }
    return json.dumps(rules, separators=(",", ":"), ensure_ascii=False)


def guide_url(http_port: int) -> str:
    return f"http://{HOST}:{http_port}{MOUNT}/{GUIDE_NAME}"


def style_url(http_port: int) -> str:
    return f"http://{HOST}:{http_port}{MOUNT}/{STYLE_NAME}"


# -- the guide -----------------------------------------------------------------------------

# The three kinds of question, each with the library queries that answer it, in order, and
# the statement in cypher/ that draws its picture. Queries of the library not named here get
# a slide of their own under "More queries".
QUESTIONS: list[tuple[str, str, list[str], str]] = [
    (
        "Finding a paper",
        "Every query takes a paper as <code>paper</code>: an arXiv id, a DOI or a "
        "<code>paper_id</code>. Find one by a piece of its title, look at what the graph "
        "holds for it, and at why its mentions are one work (<code>identity</code>).",
        ["find_papers", "paper_overview", "identity"],
        "",
    ),
    (
        "Finding by words",
        "Claims by the words of their text, their quotes or a checker's note, and works by the "
        "words of their titles or of a reference to them: Lucene's syntax (words, "
        '<code>"phrases"</code>, <code>AND</code>, <code>OR</code>, <code>NOT</code>, '
        "<code>neuro*</code>), case, accents and hyphens ignored (the <code>standard-folding</code> "
        "analyzer, which also leaves out English stop words such as <i>not</i> and <i>in</i>). "
        'From a shell: <code>paperkg search "synthetic soil" --status unsupported</code>.',
        ["search_claims", "search_works"],
        "guide_search",
    ),
    (
        "Lineage",
        "What a paper builds on, what builds on it, and how two papers are connected: "
        "<code>(:Paper)-[:CITES]-&gt;(:Paper)</code> followed over several steps.",
        ["ancestors", "descendants", "citation_paths", "common_ancestors"],
        "guide_lineage",
    ),
    (
        "Co-citation",
        "Works cited together (co-citation) and papers citing the same works (bibliographic "
        "coupling), with Salton scores that discount works everything cites.",
        ["cocited_with", "coupled_with", "cocitation_pairs", "claim_cocitation"],
        "guide_cocitation",
    ),
    (
        "Unsupported claims",
        "Claims a paper makes and what checking their sources found. In the graph view a green "
        "<code>SUPPORTS</code> arrow runs from a source to a claim it supports; "
        "<code>CHECKED_AGAINST</code> arrows are captioned with the verdict; a blue "
        "<code>REFERS_TO</code> arrow marks a source matched to a work in the reference list.",
        [
            "claim_support_summary",
            "claims",
            "unsupported_claims",
            "paper_claims",
            "uncited_claims",
            "unverifiable_claims",
            "miscited_works",
            "claims_citing",
            "support_profile",
            "at_risk_claims",
        ],
        "guide_claims",
    ),
    (
        "Influence, clusters and the main path",
        "What <code>paperkg analyze</code> writes to the papers (run it first): PageRank over "
        "<code>CITES</code>, Leiden clusters of the co-citation and coupling networks with labels "
        "from their central papers' titles, and the field's main path by search path count.",
        ["top_papers", "influential_ancestors", "clusters", "cluster_of", "main_path"],
        "guide_main_path",
    ),
    (
        "What changed",
        "Each run of <code>paperkg sync</code> stores, per transaction, what it changed (a "
        "<code>ChangeSet</code> node): works, citations, claim statuses, verdicts, merges. "
        "<code>changes_since</code> nets them over a period; <code>paperkg digest</code> writes them up.",
        ["changes_since"],
        "",
    ),
]
PICTURE_PAPER = "2402.06618"
# A picture that draws something else than a paper's neighbourhood: what it is set to draw.
PICTURE_PARAMS = {"guide_search": ("the search", ("text", "synthetic soil"))}
# What runs beside Browser, from a shell or Python: a query's subgraph drawn, or written for other
# tools. One slide each, after the questions (the commands are shown, not runnable in Browser).
TOOL_SLIDES: list[tuple[str, str, list[tuple[str, str]]]] = [
    (
        "Pictures of a query",
        "<code>paperkg show</code> draws a query's subgraph as an interactive HTML page; the main path "
        "is drawn in order, left to right, with only the citations that make its steps.",
        [
            (
                "The claims of a page, coloured by support",
                "paperkg show unsupported_claims -p paper=2405.01127 --html claims.html",
            ),
            (
                "The field's main path, after paperkg analyze",
                "paperkg show main_path -p kind=key_route --html main_path.html",
            ),
            (
                "The main path of one paper's lineage",
                "paperkg main-path --paper 2402.06618 --depth 3 --html lineage.html",
            ),
        ],
    ),
    (
        "Exports for other tools",
        "A query's subgraph, as <code>paperkg show</code> selects it, with what <code>paperkg analyze</code> "
        "wrote to its papers: GraphML for Gephi, Cytoscape, yEd, igraph or networkx, and a VOSviewer "
        "JSON map (items in their co-citation clusters, links with their strength).",
        [
            ("GraphML", "paperkg export --graphml lineage.graphml --query ancestors -p paper=2402.06618 -p depth=2"),
            ("VOSviewer JSON", "paperkg export --vosviewer cocited.json --query cocited_with -p paper=2103.07781"),
            (
                "From Python",
                'from paperkg.export import graphml, vosviewer\nvosviewer(kb, "cocited_with", paper="2103.07781")',
            ),
        ],
    ),
]


def _runnable(text: str) -> str:
    return f'<pre class="pre-scrollable code runnable">{html.escape(text)}</pre>'


def param_block(query) -> str:
    """The query's `:param` lines, as its file's header gives them (run before the query)."""
    from paperkg.cypher_files import cypher_literal

    return "\n".join(f":param {name} => {cypher_literal(value)};" for name, value in query.browser.items())


def query_block(query) -> str:
    """The query's Cypher, as its file holds it (without the header)."""
    return query.text + ";"


def _slide(title: str, lead: str, body: str) -> str:
    return (
        '<slide class="row-fluid">\n'
        '  <div class="col-sm-3">\n'
        f"    <h3>{html.escape(title)}</h3>\n"
        f'    <p class="lead">{lead}</p>\n'
        "  </div>\n"
        '  <div class="col-sm-9">\n'
        f"{body}\n"
        "  </div>\n"
        "</slide>"
    )


def _query_slide(kind: str, query) -> str:
    params = "".join(
        f"<li><code>{html.escape(p.name)}</code>: {html.escape(p.describe().split(': ', 1)[1])} "
        f"({html.escape(p.kind)}{', optional' if not p.required else ''})</li>"
        for p in query.params
    )
    runs = (
        f" It is <code>{html.escape(query.alias.target)}</code> with "
        + ", ".join(f"<code>{html.escape(k)}</code> set" for k in query.alias.fixed)
        + ": the block below sets it."
        if query.alias
        else ""
    )
    body = (
        f"    <p>{html.escape(query.description)}{runs}</p>\n"
        + (f"    <ul>{params}</ul>\n" if params else "")
        + "    <p>Click a block to put it in the editor and run it (Ctrl+Enter): first the "
        "<code>:param</code> lines (change the values to ask about another paper), then the query. "
        "(Run as one script, Browser would show the query's status but not its rows.)</p>\n"
        + (f"    <figure>{_runnable(param_block(query))}</figure>\n" if query.browser else "")
        + f"    <figure>{_runnable(query_block(query))}</figure>\n"
        f"    <p>Same from a shell: <code>paperkg query {html.escape(query.name)}"
        + "".join(
            f" -p {html.escape(shlex.quote(f'{name}={value}'))}"
            for name, value in query.browser.items()
            if value is not None and not (query.alias and name in query.alias.fixed)
        )
        + "</code></p>"
    )
    return _slide(f"{kind}: {query.name}", f"<code>{html.escape(query.name)}</code>", body)


def render_guide(library=None) -> str:
    """The guide as Neo4j Browser plays it: an <article class="guide"> with one slide per step."""
    from paperkg.cypher_files import cypher_literal
    from paperkg.library import library as load

    lib = library if library is not None else load()
    named = {name for _, _, names, _ in QUESTIONS for name in names}
    slides = [
        _slide(
            "paperkg",
            "Papers, their claims and their sources",
            "    <p>This guide walks through the three kinds of question paperkg answers, with the "
            "queries of its library: <b>lineage</b> (who builds on whom), <b>co-citation</b> (what is "
            "cited together) and <b>unsupported claims</b> (what checking the sources found).</p>\n"
            "    <p>Each query slide shows the query with its <code>:param</code> lines; the values "
            "name papers of <code>examples/corpus</code>, the example corpus <code>make run</code> ingests. Results are tables; the <i>picture</i> slides return "
            "paths to see in the graph view, styled by paperkg's style sheet (<code>:style</code>).</p>\n"
            "    <p>Labels: <code>Paper</code> (captioned title and year), <code>Claim</code>, "
            "<code>Source</code>. The same queries run in Python "
            '(<code>kb.query("ancestors", paper="2402.06618")</code>) and from the shell '
            "(<code>paperkg query ancestors -p paper=2402.06618</code>).</p>",
        )
    ]
    for kind, lead, names, picture in QUESTIONS:
        queries = [lib.get(name) for name in names if name in lib]
        listing = "".join(f"<li><code>{html.escape(q.name)}</code>: {html.escape(q.description)}</li>" for q in queries)
        body = f"    <ul>{listing}</ul>"
        if picture:
            name, picture = picture, statement(picture)
            what, value = PICTURE_PARAMS.get(name, ("the paper", ("paper", PICTURE_PAPER)))
            body += (
                f"\n    <p>As a picture (graph view): set {what}, then draw its neighbourhood.</p>\n"
                f"    <figure>{_runnable(f':param {value[0]} => {cypher_literal(value[1])};')}</figure>\n"
                f"    <figure>{_runnable(picture + ';')}</figure>"
            )
        slides.append(_slide(kind, lead, body))
        slides += [_query_slide(kind, q) for q in queries]
    for title, lead, commands in TOOL_SLIDES:
        body = "\n".join(
            f'    <p>{html.escape(what)}:</p>\n    <figure><pre class="pre-scrollable code">{html.escape(command)}</pre></figure>'
            for what, command in commands
        )
        slides.append(_slide(title, lead, body))
    extra = [q for q in lib if q.name not in named]
    slides += [_query_slide("More queries", q) for q in extra]
    return (
        "<!DOCTYPE html>\n<!-- Generated by `python -m paperkg.browser_guide` from the query library: do not edit. -->\n"
        '<html>\n<head>\n<meta charset="utf-8">\n<title>paperkg</title>\n</head>\n<body>\n'
        '<article class="guide">\n<carousel class="deck container-fluid">\n'
        + "\n".join(slides)
        + "\n</carousel>\n</article>\n</body>\n</html>\n"
    )


def guide_text() -> str:
    """The committed guide (browser/guide/paperkg.html)."""
    return (files() / "guide" / GUIDE_NAME).read_text(encoding="utf-8")


# -- serving from the managed server --------------------------------------------------------


def _java_source() -> str:
    return (files() / "extension" / "Files.java").read_text(encoding="utf-8")


def build_extension(plugins: Path, classpath: Callable[[], str]) -> Path | None:
    """Write plugins/paperkg-browser.jar (the compiled resource plus the guide and style sheet).

    The class is compiled once per source version and user (its hash is kept in the jar, and a
    copy of the jar in the user's cache directory serves every other home); the files are packed
    at every call, so the served guide is always the installed one. Returns None when there is
    no `javac` to compile with (a JRE only)."""
    jar = plugins / JAR_NAME
    source = _java_source()
    digest = hashlib.sha256(source.encode()).hexdigest()
    built = user_cache_dir() / f"browser-extension-{digest[:16]}.jar"
    classes = _classes_from(jar, digest) or _classes_from(built, digest)
    compiled = classes is None
    if classes is None:
        javac = shutil.which("javac")
        if javac is None:
            jar.unlink(missing_ok=True)
            return None
        classes = _compile(javac, source, classpath())
    from paperkg.library import CypherFileError

    try:
        guide = render_guide()
    except CypherFileError:  # a query file being edited must not keep the server from starting
        guide = guide_text()
    payload = {STYLE_NAME: style_text().encode(), GUIDE_NAME: guide.encode()}
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as out:
        # Directory entries too: Jersey finds the package's classes by looking its directory up.
        base = PACKAGE.replace(".", "/")
        parts = base.split("/")
        for directory in ["META-INF"] + ["/".join(parts[:i]) for i in range(1, len(parts) + 1)] + [f"{base}/files"]:
            out.writestr(_entry(directory + "/"), b"")
        out.writestr(_entry("META-INF/MANIFEST.MF"), "Manifest-Version: 1.0\r\nCreated-By: paperkg\r\n\r\n")
        out.writestr(_entry(SOURCE_MARK), digest)
        for name, data in sorted(classes.items()):
            out.writestr(_entry(name), data)
        for name, data in payload.items():
            out.writestr(_entry(f"{base}/files/{name}"), data)
    data = buffer.getvalue()
    if not jar.exists() or jar.read_bytes() != data:
        jar.write_bytes(data)
    if compiled:
        keep(built, data)
    return jar


def _entry(name: str) -> zipfile.ZipInfo:
    """A jar entry with a fixed date, so the same content makes the same jar."""
    info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_STORED if name.endswith("/") else zipfile.ZIP_DEFLATED
    return info


def _classes_from(jar: Path, digest: str) -> dict[str, bytes] | None:
    try:
        with zipfile.ZipFile(jar) as existing:
            if existing.read(SOURCE_MARK).decode() != digest:
                return None
            return {name: existing.read(name) for name in existing.namelist() if name.endswith(".class")}
    except (OSError, KeyError, zipfile.BadZipFile):
        return None


def _compile(javac: str, source: str, classpath: str) -> dict[str, bytes]:
    api = [jar for jar in classpath.split(":") if "ws.rs-api" in Path(jar).name] or classpath.split(":")
    with tempfile.TemporaryDirectory(prefix="paperkg-javac-") as tmp:
        src = Path(tmp) / "Files.java"
        src.write_text(source, encoding="utf-8")
        out = Path(tmp) / "classes"
        with waiting("building paperkg's Neo4j Browser extension with javac (once per version)"):
            result = subprocess.run(
                [javac, "--release", "17", "-nowarn", "-cp", ":".join(api), "-d", str(out), str(src)],
                capture_output=True,
                text=True,
            )
        if result.returncode != 0:
            raise ExtensionError(f"javac could not compile paperkg's Browser extension:\n{result.stderr.strip()}")
        return {str(path.relative_to(out)): path.read_bytes() for path in out.rglob("*.class")}


def server_config(home: Path, http_port: int, classpath: Callable[[], str]) -> list[str]:
    """neo4j.conf lines that serve the guide and style sheet and open them when Browser connects."""
    allowlist = f"browser.remote_content_hostname_whitelist=guides.neo4j.com,localhost,{HOST}"
    if build_extension(home / "plugins", classpath) is None:
        return ["# paperkg's Browser guide is not served: no `javac` (install a JDK) to build the extension", allowlist]
    return [
        # No usage-data banner over the guide (and no usage data sent from a local tool).
        "client.allow_telemetry=false",
        f"server.unmanaged_extension_classes={PACKAGE}={MOUNT}",
        # The guide and style sheet are public: Browser fetches them without credentials.
        f"dbms.security.http_auth_allowlist=/,/browser.*,{MOUNT}/.*",
        allowlist,
        # The style inline, then `clear`: Browser applies an inline style at once and draws a frame
        # of the whole sheet, which `clear` removes (with the welcome frames) before the guide,
        # fetched, arrives; so the guide is all a user sees after connecting.
        f"browser.post_connect_cmd=style {style_json()}; clear; play {guide_url(http_port)}",
    ]


def write_guide(path: Path | None = None) -> Path:
    """Regenerate the guide from the library (in a checkout, the committed browser/guide/)."""
    target = path or Path(str(files() / "guide" / GUIDE_NAME))
    target.write_text(render_guide(), encoding="utf-8")
    return target


def main(argv: Sequence[str] | None = None) -> int:
    print(f"wrote {write_guide()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
