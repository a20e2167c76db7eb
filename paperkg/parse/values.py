"""Value parsers shared by the card and page parsers. Each returns None for text it does not accept."""

from __future__ import annotations

import re
from datetime import date

_COUNT = re.compile(r"[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+")
# No count of papers, references, claims or sources comes near this; a larger one is a broken
# document (and above 2**63 it would not even fit Neo4j's integers).
MAX_COUNT = 10**9
_MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("jan", "january"),
            ("feb", "february"),
            ("mar", "march"),
            ("apr", "april"),
            ("may",),
            ("jun", "june"),
            ("jul", "july"),
            ("aug", "august"),
            ("sep", "sept", "september"),
            ("oct", "october"),
            ("nov", "november"),
            ("dec", "december"),
        ),
        start=1,
    )
    for name in names
}


def parse_count(text: str) -> int | None:
    """`1,234` or `1234` → 1234 (thousands separators are commas); None above MAX_COUNT."""
    if len(text) > 32 or not _COUNT.fullmatch(text):
        return None
    value = int(text.replace(",", ""))
    return value if value <= MAX_COUNT else None


def parse_day_month_year(text: str) -> date | None:
    """`2 May 2020` / `16 Apr 2021` → a date (English month names, independent of the locale)."""
    parts = text.split(" ")
    if len(parts) != 3 or not (parts[0].isdecimal() and parts[2].isdecimal()) or len(parts[2]) != 4:
        return None
    month = _MONTHS.get(parts[1].lower())
    if month is None or len(parts[0]) > 2:
        return None
    try:
        return date(int(parts[2]), month, int(parts[0]))
    except ValueError:
        return None


def parse_iso_date(text: str) -> date | None:
    try:
        return date.fromisoformat(text)
    except ValueError:
        return None
