"""``{% help_badge %}``: the badge of open calls for help on every desk page of an event (the
frame in ``base.html``), and ``{% help_link competition table=N %}`` /
``{% help_link competition entry=e %}``: the "Help at table N" link of a table card or a
player's page, only for a format that takes part (``events.help.contract.HelpTables``).

The badge costs the desk page one aggregate query: it comes with its first count, so nothing on
the page moves when it arrives (on a phone the header wraps, and a badge loaded after the page
pushed everything below it down a line), then asks for it again every few seconds
(``events.help.views.desk.help_badge``, with its ETag). On a public page it renders nothing,
so public bodies stay the same for everyone."""

from __future__ import annotations

from typing import Any

from django import template
from django.template.context import Context
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from events.formats import part
from events.help.contract import HelpTables
from events.help.selectors import queue_stamp
from events.help.views.desk import BADGE_SECONDS
from events.models import Competition, Event

register = template.Library()


@register.simple_tag(takes_context=True)
def help_badge(context: Context) -> SafeString:
    request = context.get("request")
    user = context.get("user")
    if request is None or user is None or not user.is_authenticated:
        return SafeString("")
    if not request.path.startswith("/desk/"):
        return SafeString("")
    event = context.get("event")
    if not isinstance(event, Event):
        event = getattr(context.get("competition"), "event", None)
    if not isinstance(event, Event):
        return SafeString("")
    badge = render_to_string(
        "events/help/_badge.html", {"event": event, "open_count": queue_stamp(event).open}
    )
    return format_html(
        '<span class="help-badge-frame" data-help-badge hx-get="{}" hx-trigger="every {}s"'
        ' hx-swap="innerHTML">{}</span><script src="{}" defer></script>',
        reverse("events:help_badge", args=[event.slug]),
        BADGE_SECONDS,
        badge,
        static("js/help-desk.js"),
    )


@register.simple_tag
def help_link(
    competition: Competition, *, table: int | None = None, entry: Any = None
) -> SafeString:
    if part(competition.format, HelpTables) is None or competition.is_finished:
        return SafeString("")
    slugs = [competition.event.slug, competition.slug]
    if entry is not None:
        url = reverse("events:help_player", args=[*slugs, entry.pk])
        return format_html(
            '<p class="help-me"><a class="button help-link" href="{}" rel="nofollow">{}</a></p>',
            url,
            _("Help at my table"),
        )
    if table is None:
        return SafeString("")
    url = reverse("events:help_table", args=[*slugs, table])
    return format_html(
        '<p class="help-me"><a class="button help-link" href="{}" rel="nofollow">{}</a></p>',
        url,
        _("Help at table %(table)s") % {"table": table},
    )
