"""The "also notify me on this phone" control of a public player page, shown once the
visitor has said "This is me":
``{% push_me entry %}`` draws it (``static/js/push_me.js`` drives it,
``events.outbox.views.public`` answers); ``{% push_me_head %}`` links the page's manifest (whose
start page is this page, for an iPhone's Home Screen) and the script. Both draw nothing when push
is not set up. Nothing in them differs per visitor: the page's body stays one cached body per
version."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote, urlencode

from django import template
from django.templatetags.static import static
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString

from events.outbox import notify

register = template.Library()


@register.inclusion_tag("events/_push_me.html", takes_context=True)
def push_me(context: dict[str, Any], entry: Any) -> dict[str, Any]:
    """The routes name the page's event too (``?event=<slug>``, from the page's own address, no
    query): an entry id alone does not reach a player of an event one has no address of."""
    match = getattr(context.get("request"), "resolver_match", None)
    event_slug = match.kwargs.get("event_slug", "") if match is not None else ""
    query = "?" + urlencode({"event": event_slug})
    return {
        "entry": entry,
        "push_key": notify.push_available() and notify.public_key(),
        "push_url": reverse("events:public_push", args=[entry.pk]) + query,
        "stop_url": reverse("events:public_push_stop", args=[entry.pk]) + query,
    }


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
