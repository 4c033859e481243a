"""``{% seating_report view %}``: on the session desk, what the last round drawn apart could
not meet (``blokus.selectors.seating``); nothing for a round drawn by the rules."""

from __future__ import annotations

from django import template

from blokus.selectors.seating import SeatingReport, seating_report as report_of
from blokus.selectors.sessions import SessionView

register = template.Library()


@register.inclusion_tag("blokus/_seating_report.html")
def seating_report(view: SessionView) -> dict[str, SeatingReport | None]:
    return {"seating": report_of(view)}
