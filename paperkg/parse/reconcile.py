"""The totals a document states, set against what was parsed (FORMAT.md B.4 table).

Mismatches are never errors: each becomes a ReconciliationItem with ok=False and one warning.
"""

from __future__ import annotations

from typing import get_args

from paperkg.parse.models import Card, FlagKind, Page, ReconciliationItem
from paperkg.parse.values import parse_count


def _item(what: str, stated: int | None, parsed: int | None, note: str | None = None) -> ReconciliationItem:
    return ReconciliationItem(what=what, stated=stated, parsed=parsed, ok=stated == parsed, note=note)


def _warnings(items: list[ReconciliationItem]) -> list[str]:
    return [
        f"{item.what}: stated {item.stated}, parsed {item.parsed}" + (f" ({item.note})" if item.note else "")
        for item in items
        if not item.ok
    ]


def reconcile_card(card: Card) -> Card:
    """The list totals against the key facts they repeat (A: `<total>` equals the key fact)."""
    checks = [
        ("'Built on by' total vs key fact 'Cited by N papers in the map'", card.cited_by_count, card.built_on_by),
        ("'Builds on' total vs key fact 'Builds on X of its Y references'", card.builds_on_in_map, card.builds_on),
    ]
    items = [
        _item(what, stated, listed.total if listed else 0) for what, stated, listed in checks if stated is not None
    ]
    return card.model_copy(update={"reconciliation": items, "warnings": _warnings(items) + card.warnings})


def _metadata_count(page: Page, key: str) -> int | None:
    for entry in page.metadata:
        if entry.key == key and len(entry.values) == 1:
            return parse_count(entry.values[0])
    return None


def reconcile_page(page: Page) -> Page:
    listed = [source for claim in page.claims for source in claim.sources]
    sum_n = sum(claim.sources_checked or 0 for claim in page.claims)
    sum_m = sum(claim.sources_total or 0 for claim in page.claims)
    matched = sum(source.matched for source in listed)
    verdicts = sum(source.verdict == "not_supported" for source in listed)
    cited_note = f"reconciles only as Σ M over claims; {len(listed)} sources are listed as '- cites'"
    checked_note = f"reconciles only as Σ N over claims; {matched} listed sources are marked ' source'"
    items = [
        _item("sources its claims cite (integrity header)", page.header.sources_total, sum_m, cited_note),
        _item("sources checked (integrity header)", page.header.sources_checked, sum_n, checked_note),
        _item("cited sources (claims summary)", page.claims_summary.cited, sum_m, cited_note),
        _item("cited sources checked (claims summary)", page.claims_summary.checked, sum_n, checked_note),
        _item(
            "supported (claims summary)",
            page.claims_summary.supported,
            sum_n - verdicts,
            f"reconciles only as Σ N minus {verdicts} verdicts; "
            f"{matched - verdicts} listed ' source' entries have no verdict",
        ),
        _item(
            "flagged (claims summary)",
            page.claims_summary.flagged,
            0,
            f"no verdict is marked as a contradiction; {verdicts} say the source does not establish the claim",
        ),
    ]
    stated_flags = {entry.flag: entry.count for entry in page.flag_summary}
    for flag in get_args(FlagKind):
        parsed = sum(flag in claim.flags for claim in page.claims)
        if flag in stated_flags or parsed:
            items.append(_item(f"claims flagged {flag} (flag summary)", stated_flags.get(flag), parsed))
    raw_entries = len(page.raw_references)
    if page.raw_reference_lines_stated is not None:
        items.append(
            _item(
                "research works printed but not linked (lines)",
                page.raw_reference_lines_stated,
                page.raw_reference_lines,
                f"{raw_entries} entries after joining continuation lines",
            )
        )
    works = len(page.references) + raw_entries
    works_note = f"{len(page.references)} structured + {raw_entries} raw entries"
    items.append(_item("references it cites (integrity header)", page.header.references_total, works, works_note))
    if (stated := _metadata_count(page, "References")) is not None:
        items.append(_item("references (metadata)", stated, works, works_note))
    if (stated := _metadata_count(page, "Cited by")) is not None:
        items.append(
            _item("cited by (metadata)", stated, len(page.cited_by), f"{len(page.cited_by)} citing works are listed")
        )
    return page.model_copy(update={"reconciliation": items, "warnings": _warnings(items) + page.warnings})
