"""Where the parse tests find their documents: the shared seeds and the invented fixtures.

The seeds live outside the repository (../shared/seeds from its root, or $PAPERKG_SEEDS) and are
never copied into it. On a clone without them the tests that need them skip, all with one reason;
where CI=true they are required, and a missing directory fails those tests instead.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "parse"

CARD_000 = "000_"
CARD_001 = "001_"
CARD_002 = "002_"
PAGE_004 = "004_"


SEEDS_MISSING = "the seed documents (../shared/seeds, or $PAPERKG_SEEDS) are not on this machine"


def seeds_dir() -> Path:
    """The seeds' directory; skips the test when it is missing (fails it where CI=true)."""
    configured = os.environ.get("PAPERKG_SEEDS")
    path = Path(configured) if configured else Path(__file__).resolve().parents[1].parent / "shared" / "seeds"
    if not path.is_dir():
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{SEEDS_MISSING}: CI=true requires them (looked in {path})")
        pytest.skip(SEEDS_MISSING)
    return path


def seed_path(prefix: str) -> Path:
    """The one seed file whose name starts with `prefix`, e.g. "004_"."""
    matches = sorted(seeds_dir().glob(f"{prefix}*.txt"))
    if len(matches) != 1:
        pytest.fail(f"expected one seed named {prefix}*.txt in {seeds_dir()}, found {len(matches)}")
    return matches[0]


def seed_lines(prefix: str) -> list[str]:
    """The seed's lines, for checking parsed values against the text at a known line number."""
    return seed_path(prefix).read_text(encoding="utf-8").split("\n")


def fixture_bytes(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


def fixture_lines(name: str) -> list[str]:
    return fixture_bytes(name).decode("utf-8").split("\n")


def join_lines(lines: list[str]) -> bytes:
    """Lines back into a document as the seeds are laid out: LF, no final newline."""
    return "\n".join(lines).encode("utf-8")


def fixture_with(name: str, **replacements: str | None) -> bytes:
    """A fixture with lines replaced, keyed by 1-based number (L35="…"); None deletes the line.

    Numbers refer to the original fixture, whatever earlier replacements insert or delete.
    """
    lines = fixture_lines(name)
    for key, text in sorted(replacements.items(), key=lambda item: -int(item[0][1:])):
        index = int(key[1:]) - 1
        if text is None:
            del lines[index]
        else:
            lines[index] = text
    return join_lines(lines)
