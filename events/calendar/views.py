"""The feeds: a hosting club's public events (``/c/<club>/calendar.ics``), an event's public
times (``/e/<event>/calendar.ics``, public events only) and
a player's own (``/calendar/<token>.ics``, the signed token of ``events.calendar.links``).
Computed from the database on every request; an unknown event, an unlisted one, an altered
token or the token of a player whose data was erased (``privacy.person_erase``) is a 404."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils import timezone, translation
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from events.calendar import selectors
from events.calendar.contract import CalendarItem
from events.calendar.feeds import calendar_ical
from events.calendar.links import token_player_id
from events.common.network import url_host
from events.common.siteurl import site_url
from events.language import supported
from events.models import HostClub, Player
from events.signups.services import privacy

CONTENT_TYPE = "text/calendar; charset=utf-8"


def feed_response(items: list[CalendarItem], name: str, filename: str) -> HttpResponse:
    base = site_url()
    body = calendar_ical(
        items,
        name=name,
        domain=url_host(base) or "localhost",
        base_url=base,
        now=timezone.now(),
        product=str(settings.SITE_NAME),
    )
    response = HttpResponse(body, content_type=CONTENT_TYPE)
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


@require_http_methods(["GET", "HEAD"])
def event_feed(request: HttpRequest, event_slug: str) -> HttpResponse:
    event = selectors.public_event(event_slug)
    if event is None:
        raise Http404
    with translation.override(supported(event.language) or settings.LANGUAGE_CODE):
        items = selectors.event_items(event)
        response = feed_response(items, event.name, f"{event.slug}.ics")
    patch_cache_control(response, public=True, max_age=300)
    return response


@require_http_methods(["GET", "HEAD"])
def club_feed(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = get_object_or_404(HostClub, slug=club_slug, is_approved=True)
    with translation.override(supported(club.language) or settings.LANGUAGE_CODE):
        response = feed_response(selectors.club_items(club), club.name, f"{club.slug}.ics")
    patch_cache_control(response, public=True, max_age=300)
    return response


@require_http_methods(["GET", "HEAD"])
def player_feed(request: HttpRequest, token: str) -> HttpResponse:
    player_id = token_player_id(token)
    player = Player.objects.filter(pk=player_id).first() if player_id else None
    if player is None or privacy.is_erased(player):  # the link dies with the person's data
        raise Http404
    entries = selectors.player_entries(player)
    events = [entry.competition.event for entry in entries]
    language = supported(player.language) or (supported(events[-1].language) if events else None)
    with translation.override(language or settings.LANGUAGE_CODE):
        items = selectors.player_items(entries)
        name = _("%(name)s: games and deadlines") % {"name": player.public_name}
        response = feed_response(items, name, "games.ics")
    patch_cache_control(response, private=True, no_store=True)
    response["X-Robots-Tag"] = "noindex"
    return response
