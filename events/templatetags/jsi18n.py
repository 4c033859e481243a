"""``{% load jsi18n %}<script src="{% js_catalogue_url %}" defer></script>``: the JavaScript
strings' catalogue in the page's language, at its versioned address (events/common/jsi18n.py)."""

from __future__ import annotations

from django import template

from events.common.jsi18n import catalogue_url

register = template.Library()


@register.simple_tag
def js_catalogue_url() -> str:
    return catalogue_url()
