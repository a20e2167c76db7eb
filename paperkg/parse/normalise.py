"""Normalised titles for matching one work across documents (MODEL.md, "Paper identity")."""

from __future__ import annotations

import hashlib
import unicodedata
from functools import lru_cache

SELF_CITATION = "Self-citation"
PREPRINT = "Preprint"

# Apostrophes and brackets join the word they sit in ("Don’t" → "dont", "(Un)reliable" →
# "unreliable"); all other punctuation and symbols separate words, so "Fine-tuning: a survey" and
# "Fine tuning — a survey" agree.
_JOINING = frozenset("'’‘ʼ`´()[]{}")
# Neo4j refuses to index a value of more than about 8 kB, so a longer key would make the write
# of its document fail. No real title comes near this.
MAX_KEY_BYTES = 4000


def strip_markers(title: str) -> str:
    """Remove the `Self-citation` prefix and `Preprint` suffix a page glues onto titles (B.7)."""
    if title.startswith(SELF_CITATION):
        title = title[len(SELF_CITATION) :]
    if title.endswith(PREPRINT):
        title = title[: -len(PREPRINT)]
    return title.strip()


def _separates(char: str) -> bool:
    return unicodedata.category(char)[0] in "PSZC"


# The rule below for ASCII text as one str.translate table (most titles are ASCII).
_ASCII_TABLE = str.maketrans(
    {chr(code): None if chr(code) in _JOINING else " " if _separates(chr(code)) else chr(code) for code in range(128)}
)


# A popular work's title recurs in thousands of documents; normalising it once is enough. Kept
# small: the cache lives as long as the run, and 65,536 titles held about 20 MB (docs/performance.md).
@lru_cache(maxsize=1 << 12)
def title_norm(title: str) -> str:
    """NFKC, case-folded, markers removed, punctuation dropped, white space collapsed."""
    text = unicodedata.normalize("NFKC", strip_markers(title.strip())).casefold()
    if text.isascii():
        text = text.translate(_ASCII_TABLE)
    else:
        text = "".join("" if char in _JOINING else " " if _separates(char) else char for char in text)
    return index_key(" ".join(text.split()))


def index_key(key: str) -> str:
    """The key itself, or when it is too long to index, its start and the SHA-256 of all of it.

    Equal keys stay equal and different keys different. A normalised title never contains `:`,
    so a shortened title cannot equal a real one."""
    data = key.encode()
    if len(data) <= MAX_KEY_BYTES:
        return key
    return data[:1000].decode(errors="ignore") + " sha256:" + hashlib.sha256(data).hexdigest()
