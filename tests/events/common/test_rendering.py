"""What the formats' row renderers share (events/common/rendering.py): ``shown`` writes what
``{{ value }}`` would, with its two plain cases taken short."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.template import Context, Template
from django.utils import translation

from events.common.rendering import shown


@pytest.mark.parametrize(
    "value",
    ['Anna <b>&</b> "Bo"', 1234567, 0, -3, Decimal("2.50"), 2.5, None, dt.date(2026, 5, 1)],
)
@pytest.mark.parametrize("language", ["en", "sv"])
def test_it_writes_what_the_template_would(value, language):
    with translation.override(language):
        context = Context({"value": value})
        assert shown(value, context) == Template("{{ value }}").render(context)


def test_text_is_escaped_only_where_the_template_escapes():
    assert shown("<b>", Context()) == "&lt;b&gt;"
    assert shown("<b>", Context(autoescape=False)) == "<b>"


def test_thousands_are_separated_where_the_settings_say(settings):
    settings.USE_THOUSAND_SEPARATOR = True
    with translation.override("en"):
        assert shown(1234567, Context()) == "1,234,567"
