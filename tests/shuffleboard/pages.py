"""Helpers for the sjoelen page tests: addresses and form data."""

from __future__ import annotations

from django.urls import reverse

HTMX = {"HX-Request": "true"}


def url(name, competition, *args):
    return reverse(f"shuffleboard:{name}", args=[competition.event.slug, competition.slug, *args])


def gates(c1, c2, c3, c4, **extra):
    return {"gate1": c1, "gate2": c2, "gate3": c3, "gate4": c4, **extra}


def sub_turns(*rows, **extra):
    """Rows of counts in gate-value order (1, 2, 3, 4) -> the sub-turn form fields."""
    data = {}
    for number, row in enumerate(rows, start=1):
        for value, count in zip((1, 2, 3, 4), row, strict=True):
            data[f"s{number}_gate{value}"] = count
    return {**data, **extra}
