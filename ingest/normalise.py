"""Normalised titles for matching one work across documents (MODEL.md, "Paper identity")."""

from __future__ import annotations

import unicodedata

SELF_CITATION = "Self-citation"
PREPRINT = "Preprint"

# Apostrophes and brackets join the word they sit in ("Don’t" → "dont", "(Un)reliable" →
# "unreliable"); all other punctuation and symbols separate words, so "Fine-tuning: a survey" and
# "Fine tuning — a survey" agree.
_JOINING = frozenset("'’‘ʼ`´()[]{}")


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
    return " ".join("".join(kept).split())
