"""Seeded mutations of document bytes, for fuzzing the parser.

`mutate(data, rng)` applies one to three of the damage kinds in MUTATIONS (what real files
suffer: lost, repeated or reordered lines, truncation, bit rot, the wrong encoding, binary junk,
mixed line endings, a BOM, blank lines, runaway lines, works that lost their identifiers).
`check_outcome` states the parser's contract on any input: it parses, or it raises a ParseError
with a line inside the document and a one-line message; anything else is a FuzzFailure.

The long run: `python -m mutate --seconds 600 --seed S` mutates the four seed documents,
a small synthetic corpus and the example corpus until time is up, prints what happened, and exits
1 if the parser broke its contract; `--replay N` re-runs case N with the full traceback.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from paperkg.parse import ParseError, parse_bytes

GIANT_LINE_BYTES = 1024 * 1024
# A message longer than this quotes the document instead of excerpting it.
MAX_MESSAGE_CHARS = 2000
REPO = Path(__file__).resolve().parents[1]
DEFAULT_SEEDS = REPO.parent / "shared" / "seeds"
EXAMPLES = REPO / "examples" / "corpus"
_BREAKS = (b"\r\n", b"\n", b"\r")


# ---------------------------------------------------------------- mutations


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def delete_lines(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    start = rng.randrange(len(lines))
    del lines[start : start + rng.choice((1, 1, 2, 5, 20))]
    return b"\n".join(lines)


def duplicate_lines(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    start = rng.randrange(len(lines))
    block = lines[start : start + rng.choice((1, 1, 3, 10))]
    lines[start:start] = block
    return b"\n".join(lines)


def swap_lines(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    first, second = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[first], lines[second] = lines[second], lines[first]
    return b"\n".join(lines)


def join_lines(data: bytes, rng: random.Random) -> bytes:
    """Two lines glued into one, as the page format glues its elements (B.3), with or without a space."""
    lines = _lines(data)
    if len(lines) < 2:
        return data
    index = rng.randrange(len(lines) - 1)
    lines[index : index + 2] = [lines[index] + rng.choice((b"", b" ", b" - ")) + lines[index + 1]]
    return b"\n".join(lines)


def split_line(data: bytes, rng: random.Random) -> bytes:
    """A line broken in two at a random byte, perhaps inside a UTF-8 sequence."""
    lines = _lines(data)
    index = rng.randrange(len(lines))
    cut = rng.randrange(len(lines[index]) + 1)
    lines[index : index + 1] = [lines[index][:cut], lines[index][cut:]]
    return b"\n".join(lines)


def insert_blank_lines(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    lines.insert(rng.randrange(len(lines) + 1), b" " * rng.choice((0, 0, 3)))
    return b"\n".join(lines)


def truncate(data: bytes, rng: random.Random) -> bytes:
    """Cut anywhere, even inside a UTF-8 sequence."""
    return data[: rng.randrange(len(data) + 1)]


def flip_bytes(data: bytes, rng: random.Random) -> bytes:
    if not data:
        return data
    mutable = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        position = rng.randrange(len(mutable))
        mutable[position] ^= 1 << rng.randrange(8) if rng.random() < 0.7 else rng.randrange(1, 256)
    return bytes(mutable)


def reencode(data: bytes, rng: random.Random) -> bytes:
    """The document saved in another encoding (or decoded as one encoding, re-encoded as another)."""
    text = data.decode("utf-8", errors="replace")
    if rng.random() < 0.3:  # mojibake: UTF-8 bytes read as Latin-1, written back as UTF-8
        return data.decode("latin-1").encode("utf-8")
    encoding = rng.choice(("latin-1", "cp1252", "utf-16", "utf-16-le", "utf-16-be"))
    return text.encode(encoding, errors="replace")


def giant_line(data: bytes, rng: random.Random) -> bytes:
    """A 1 MB line, inserted or appended to an existing line, with or without spaces."""
    unit = rng.choice((b"x", b"word ", "–§".encode(), b"- cites "))
    giant = (unit * (GIANT_LINE_BYTES // len(unit) + 1))[:GIANT_LINE_BYTES]
    lines = _lines(data)
    position = rng.randrange(len(lines))
    if rng.random() < 0.5:
        lines.insert(position, giant)
    else:
        lines[position] += giant
    return b"\n".join(lines)


def nul_bytes(data: bytes, rng: random.Random) -> bytes:
    mutable = bytearray(data)
    for _ in range(rng.randint(1, 3)):
        mutable.insert(rng.randrange(len(mutable) + 1), 0)
    return bytes(mutable)


def line_endings(data: bytes, rng: random.Random) -> bytes:
    """All CRLF, all CR, or a random mix of LF, CRLF and CR; sometimes a final newline."""
    lines = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n")
    style = rng.random()
    if style < 0.25:
        joined = b"\r\n".join(lines)
    elif style < 0.5:
        joined = b"\r".join(lines)
    else:
        joined = lines[0] + b"".join(rng.choice(_BREAKS) + line for line in lines[1:])
    return joined + (rng.choice(_BREAKS) if rng.random() < 0.3 else b"")


def bom(data: bytes, rng: random.Random) -> bytes:
    """A UTF-8 BOM at the start (the accepted case), twice, or in the middle of the text."""
    mark = b"\xef\xbb\xbf"
    where = rng.random()
    if where < 0.6:
        return mark + data
    if where < 0.8:
        return mark + mark + data
    position = rng.randrange(len(data) + 1)
    return data[:position] + mark + data[position:]


_CARD_ITEM = re.compile(rb"- \[.*\]\((https?://\S*/paper/)[^)]*/\) \((\d{4})\)")


def lose_identifiers(data: bytes, rng: random.Random) -> bytes:
    """A work scraped without what identifies it: a card item's title becomes `?` and its link's
    id a bare number; a document without items loses its title (a page's is line 2)."""
    lines = _lines(data)
    items = [index for index, line in enumerate(lines) if _CARD_ITEM.fullmatch(line.rstrip(b"\r"))]
    if items:
        index = rng.choice(items)
        match = _CARD_ITEM.fullmatch(lines[index].rstrip(b"\r"))
        lines[index] = b"- [?](" + match[1] + b"1/) (" + match[2] + b")"
    elif len(lines) > 1:
        lines[0 if lines[0].startswith(b"# ") else 1] = b"# ?" if lines[0].startswith(b"# ") else b"?"
    return b"\n".join(lines)


MUTATIONS: dict[str, Callable[[bytes, random.Random], bytes]] = {
    function.__name__: function
    for function in (
        delete_lines,
        duplicate_lines,
        swap_lines,
        join_lines,
        split_line,
        insert_blank_lines,
        truncate,
        flip_bytes,
        reencode,
        giant_line,
        nul_bytes,
        line_endings,
        bom,
        lose_identifiers,
    )
}
# Giant lines cost a megabyte each to build and parse; keep them a small share of the runs.
_WEIGHTS = [1 if name == "giant_line" else 6 for name in MUTATIONS]


def mutate(data: bytes, rng: random.Random) -> tuple[bytes, list[str]]:
    """Apply one to three mutations chosen by rng; returns the bytes and the names, in order."""
    count = 1 + (rng.random() < 0.35) + (rng.random() < 0.1)
    names = rng.choices(list(MUTATIONS), _WEIGHTS, k=count)
    for name in names:
        data = MUTATIONS[name](data, rng)
    return data, names


# ---------------------------------------------------------------- the contract


class FuzzFailure(Exception):
    """The parser broke its contract on an input."""


def line_count(data: bytes) -> int:
    """Physical lines as the parser counts them: CRLF, LF and a lone CR each end one."""
    return data.count(b"\n") + data.count(b"\r") - data.count(b"\r\n") + 1


def check_outcome(data: bytes, path: str = "<fuzz>") -> ParseError | None:
    """Parse `data`: None when it parsed, the ParseError when it was rejected properly.

    Raises FuzzFailure for any other exception, a line outside 1..line count, or a message that
    is not one short line.
    """
    try:
        parse_bytes(data, path)
    except ParseError as error:
        message = str(error)
        if error.line is not None and not 1 <= error.line <= line_count(data):
            raise FuzzFailure(f"ParseError line {error.line} outside 1..{line_count(data)}: {message[:200]}") from error
        if len(message.splitlines()) != 1:
            raise FuzzFailure(f"ParseError message is not one line: {message[:200]!r}") from error
        if len(message) > MAX_MESSAGE_CHARS:
            raise FuzzFailure(f"ParseError message of {len(message)} characters: {message[:200]!r}") from error
        return error
    except Exception as error:  # the contract: nothing but ParseError ever escapes
        raise FuzzFailure(f"{type(error).__name__}: {str(error)[:300]}") from error
    return None


def is_internal_error(error: ParseError) -> bool:
    """parse_bytes' last resort: a parser bug reported as a ParseError without a line."""
    return error.reason.startswith("internal parser error")


# ---------------------------------------------------------------- mutants among good documents


def mixed_batch(directory: Path, seed: int, cases: list[Case], good: list[Path]) -> list[Path]:
    """Write the mutants of `cases` and copies of the `good` documents into `directory`, in an
    order shuffled by `seed` (a mutant may come first, last or between good ones); returns the
    paths of the good copies, whose documents an ingestion of the directory must all land."""
    directory.mkdir(parents=True, exist_ok=True)
    entries = [(f"mutant_{case.number}", case.data) for case in cases]
    entries += [(f"good_{path.stem}", path.read_bytes()) for path in good]
    random.Random(seed).shuffle(entries)
    copies = []
    for position, (name, data) in enumerate(entries):
        path = directory / f"{position:04d}_{name}.txt"
        path.write_bytes(data)
        if name.startswith("good_"):
            copies.append(path)
    return copies


# ---------------------------------------------------------------- the long run


class Case(NamedTuple):
    number: int
    source: str
    mutations: list[str]
    data: bytes


def fuzz_corpus(seed: int, seeds_dir: Path, extra_dirs: list[Path], work_dir: Path) -> list[tuple[str, bytes]]:
    """(name, bytes) of every document to mutate: the seeds, a small synthetic corpus, the examples."""
    from synth import generate  # only the long run needs the generator

    synth_dir = work_dir / "synth"
    generate(synth_dir, papers=60, pages=3, seed=seed)
    documents = []
    for directory in [seeds_dir, synth_dir, *extra_dirs]:
        documents += [(str(path), path.read_bytes()) for path in sorted(directory.iterdir()) if path.is_file()]
    if not documents:
        raise SystemExit("no documents to mutate")
    return documents


def make_case(seed: int, number: int, corpus: list[tuple[str, bytes]]) -> Case:
    """Case `number` of a run: its own rng, so any case can be replayed alone."""
    rng = random.Random(f"{seed}:{number}")
    # Pages are few but hold most of the grammar; draw them as often as all the cards together.
    pages = [document for document in corpus if not document[1].startswith(b"# ")]
    source, data = rng.choice(pages if pages and rng.random() < 0.5 else corpus)
    mutated, names = mutate(data, rng)
    return Case(number, source, names, mutated)


def _signature(message: str, case: Case) -> str:
    """A failure's message without the case's own path, so repeats of one bug group together."""
    return message.replace(f"case-{case.number}", "<document>")


def run(seed: int, seconds: float, corpus: list[tuple[str, bytes]], out=sys.stdout) -> int:
    """Fuzz until `seconds` have passed; prints a summary and returns the number of crashes.

    Crashes (contract breaches) and internal parser errors are grouped by message, each group
    shown with its count and the first case that reproduces it.
    """
    deadline = time.monotonic() + seconds
    tried = parsed = rejected = crashes = internal = 0
    groups: dict[tuple[str, str], list[Case]] = {}
    number = 0
    while time.monotonic() < deadline:
        case = make_case(seed, number, corpus)
        number += 1
        tried += 1
        try:
            error = check_outcome(case.data, f"case-{case.number}")
        except FuzzFailure as failure:
            crashes += 1
            groups.setdefault(("crash", _signature(str(failure), case)), []).append(case)
            continue
        if error is None:
            parsed += 1
            continue
        rejected += 1
        if is_internal_error(error):
            internal += 1
            groups.setdefault(("internal parser error", _signature(error.reason, case)), []).append(case)
    print(
        f"seed {seed}: tried {tried} documents in {seconds:g}s: {parsed} parsed, {rejected} rejected "
        f"({internal} as internal parser errors), {crashes} crashes",
        file=out,
    )
    for (label, what), cases in groups.items():
        first = cases[0]
        print(
            f"{label} ×{len(cases)}: {what}\n  first: case {first.number} (source {Path(first.source).name}, "
            f"mutations {', '.join(first.mutations)}); "
            f"reproduce: python -m mutate --seed {seed} --replay {first.number}",
            file=out,
        )
    return crashes


def replay(seed: int, number: int, corpus: list[tuple[str, bytes]], out=sys.stdout) -> int:
    """Re-run one case; prints its outcome (with the traceback of a crash) and returns 1 on a failure."""
    case = make_case(seed, number, corpus)
    mutations = ", ".join(case.mutations)
    print(f"case {number}: source {Path(case.source).name}, mutations {mutations}, {len(case.data)} bytes", file=out)
    try:
        error = check_outcome(case.data, f"case-{number}")
    except FuzzFailure as failure:
        print(f"crash: {failure}", file=out)
        traceback.print_exception(failure.__cause__, file=out)
        return 1
    print("parsed" if error is None else f"rejected: {str(error)[:500]}", file=out)
    return 1 if error is not None and is_internal_error(error) else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mutate", description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="how long to fuzz (default 60)")
    parser.add_argument("--seed", type=int, default=0, help="run seed; the same seed replays the same cases")
    parser.add_argument(
        "--seeds-dir", type=Path, default=DEFAULT_SEEDS, help=f"the seed documents (default {DEFAULT_SEEDS})"
    )
    parser.add_argument("--corpus", type=Path, action="append", default=[], help="another directory of documents")
    parser.add_argument("--replay", type=int, metavar="N", help="re-run case N only and show what happened")
    args = parser.parse_args(argv)
    if not args.seeds_dir.is_dir():
        parser.error(f"seed documents not found at {args.seeds_dir} (use --seeds-dir)")
    extra = [*args.corpus, *([EXAMPLES] if EXAMPLES.is_dir() else [])]
    with tempfile.TemporaryDirectory(prefix="paperkg-fuzz-") as work:
        corpus = fuzz_corpus(args.seed, args.seeds_dir, extra, Path(work))
    if args.replay is not None:
        return replay(args.seed, args.replay, corpus)
    return 1 if run(args.seed, args.seconds, corpus) else 0


if __name__ == "__main__":
    sys.exit(main())
