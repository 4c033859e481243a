"""Numbers of series pages: whole numbers as such, others with two decimals, in the reader's
language (``django.utils.formats``)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from django import template
from django.utils.formats import date_format, get_format, number_format
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

register = template.Library()


@register.filter
def series_number(value: Any) -> str:
    if value is None or value == "":
        return ""
    if not isinstance(value, Fraction):
        value = Fraction(value)
    if value.denominator == 1:
        return number_format(int(value), force_grouping=True)
    return number_format(round(float(value), 2), 2, force_grouping=True)


@register.filter
def signed(value: Any) -> str:
    """+1.50 / −0.25 / ±0 (a night against the player's own average)."""
    if value is None:
        return ""
    if not isinstance(value, Fraction):
        value = Fraction(value)
    if value == 0:
        return "±0"
    text = series_number(abs(value))
    return f"+{text}" if value > 0 else f"−{text}"


def quick_numbers() -> Any:
    """``series_number`` without Django's per-number lookups: the separators are read once.
    Falls back to it where the language groups digits other than by three."""
    grouping = get_format("NUMBER_GROUPING")
    if grouping not in (0, 3):
        return series_number
    decimal = str(get_format("DECIMAL_SEPARATOR"))
    thousand = str(get_format("THOUSAND_SEPARATOR")) if grouping else ""

    def shown(value: Fraction) -> str:
        if value.denominator == 1:
            text = f"{int(value):,}"
        else:
            text = f"{round(float(value), 2):,.2f}"
        return text.replace(",", "\x00").replace(".", decimal).replace("\x00", thousand)

    return shown


def reason_texts() -> dict[str, str]:
    return {
        "final": _("final, always counts"),
        "counted": _("counted"),
        "dropped": _("dropped (one of the worst)"),
        "beyond_best": _("not among the best"),
    }


@register.filter
def series_why(line: Any) -> SafeString:
    """Which results counted, and why: one item per result (``events.series.selectors.Line``).
    Built here with plain string formatting rather than a template: a season's page lists some
    1,500 of them, which a template renders in about half a second and this in a few
    milliseconds (bench/series.py). Every text from outside is escaped."""
    reasons = reason_texts()
    against = _("%(reason)s · %(diff)s against own average")
    numbers: dict[Any, str] = {}
    quick = quick_numbers()
    items = []
    for used in line.used:
        counted = used.counted
        member = used.member
        # The same membership object serves every line of the table: its text is made once.
        event_html = getattr(member, "why_html", None)
        if event_html is None:
            event = member.competition.event
            event_html = (
                f'<span class="series-event">{escape(event.name)}</span> <span class="muted">'
                f"{escape(date_format(event.starts_on, 'SHORT_DATE_FORMAT'))}</span>"
            )
            member.why_html = event_html
        worth = numbers.get(counted.worth)
        if worth is None:
            worth = numbers[counted.worth] = escape(quick(counted.worth))
        reason = reasons.get(counted.reason, reasons["beyond_best"])
        if used.against_average is not None:
            diff = used.against_average
            text = "±0" if diff == 0 else ("+" if diff > 0 else "−") + quick(abs(diff))
            reason = against % {"reason": reason, "diff": text}
        if counted.counted:
            items.append(
                f'<li class="used">{event_html}: <strong>{worth}</strong> '
                f'<span class="muted small">{escape(reason)}</span></li>'
            )
        else:
            items.append(
                f'<li class="unused">{event_html}: <s>{worth}</s> '
                f'<span class="muted small">{escape(reason)}</span></li>'
            )
    return mark_safe(f'<ul class="series-used">{"".join(items)}</ul>')  # noqa: S308 (escaped above)
