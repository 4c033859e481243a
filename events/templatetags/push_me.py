"""The "this is me — notify me on this phone" control of a public player page (issue 31):
``{% push_me entry %}`` draws it (``static/js/push_me.js`` drives it, ``events.entry.
public_push`` answers); ``{% push_me_head %}`` links the page's manifest (whose start page is
this page, for an iPhone's Home Screen) and the script. Both draw nothing when push is not set
up. Nothing in them differs per visitor: the page's body stays one cached body per version."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from django import template
from django.templatetags.static import static
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString

from events.services import notify

register = template.Library()


@register.inclusion_tag("events/_push_me.html")
def push_me(entry: Any) -> dict[str, Any]:
    return {"entry": entry, "push_key": notify.push_available() and notify.public_key()}


@register.simple_tag(takes_context=True)
def push_me_head(context: dict[str, Any]) -> SafeString:
    if not notify.push_available():
        return SafeString("")
    manifest = reverse("events:manifest") + "?start=" + quote(context["request"].path, safe="/")
    return format_html(
        '<link rel="manifest" href="{}"><script src="{}" defer></script>',
        manifest,
        static("js/push_me.js"),
    )
