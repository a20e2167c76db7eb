"""Normalised titles for matching one work across documents (MODEL.md, "Paper identity")."""

from __future__ import annotations

import hashlib
import unicodedata

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


def title_norm(title: str) -> str:
    """NFKC, case-folded, markers removed, punctuation dropped, white space collapsed."""
    text = unicodedata.normalize("NFKC", strip_markers(title.strip())).casefold()
    kept = []
    for char in text:
        if char in _JOINING:
            continue
        category = unicodedata.category(char)
        kept.append(" " if category[0] in "PSZC" else char)
    return index_key(" ".join("".join(kept).split()))


def index_key(key: str) -> str:
    """The key itself, or when it is too long to index, its start and the SHA-256 of all of it.

    Equal keys stay equal and different keys different. A normalised title never contains `:`,
    so a shortened title cannot equal a real one."""
    data = key.encode()
    if len(data) <= MAX_KEY_BYTES:
        return key
    return data[:1000].decode(errors="ignore") + " sha256:" + hashlib.sha256(data).hexdigest()
