"""What the formats' row renderers (template tags that write a table's rows in one call, where
``bench/first_render.py`` showed the template loop too slow) share."""

from __future__ import annotations

import html
from typing import Any

from django import template
from django.conf import settings
from django.template.base import render_value_in_context


def shown(value: Any, context: template.Context) -> str:
    """What ``{{ value }}`` writes (``render_value_in_context``), without its general machinery
    for the two plain cases: a str (escaped) and an int (``localize`` gives ``str(int)`` when
    thousands are not separated)."""
    kind = type(value)
    if kind is str and context.autoescape:
        return html.escape(value)
    if kind is int and not settings.USE_THOUSAND_SEPARATOR:
        return str(value)
    return str(render_value_in_context(value, context))
