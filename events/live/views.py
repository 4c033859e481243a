"""The public pages of the shared app: the list of events, an event, a competition."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_GET

from events import demo, selectors
from events.calendar.links import event_feed_path, subscribe_links
from events.clubs.selectors import clubs_listed
from events.common.qr import qr_svg
from events.common.siteurl import absolute_url
from events.live.pages import POLL, Context, competition_page, event_page
from events.models import Competition, Event

FRONT_PAGE_EVENTS = 60


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    context = {
        # A federation's install holds thousands: the latest ones here, every club's own on
        # its page (/c/<club>/).
        "events": selectors.events_public()
        .select_related("host")
        .defer("host__logo")[:FRONT_PAGE_EVENTS],
        "clubs": clubs_listed(timezone.localdate()),
        # A newcomer's first page after `make run`: where the desk is and how to log in.
        "demo_logins": demo_logins() if demo.is_loaded() else None,
    }
    return render(request, "events/index.html", context)


def demo_logins() -> dict[str, str]:
    return {
        "organiser": demo.ORGANISER[0],
        "organiser_password": demo.ORGANISER[1],
        "admin": demo.ADMIN[0],
        "admin_password": demo.ADMIN[1],
    }


@event_page("events/event.html")
def event(request: HttpRequest, event: Event) -> Context:
    competitions = list(event.competitions.all())
    only = competitions[0] if len(competitions) == 1 else None
    entries = selectors.entries_for_competition(only) if only else []
    qr_url = absolute_url(event.get_absolute_url())
    return {
        "competitions": competitions,
        "only": only,
        "entries": [e for e in entries if not e.withdrawn_at],
        "format_public_panel": only.game_format.public_panel if only else "",
        "format_head": only.game_format.head if only else "",
        "poll": POLL if any(not c.is_finished for c in competitions) else "",
        "qr": qr_svg(qr_url),
        "sign_up": any(getattr(c, "takes_sign_ups", False) for c in competitions),
        "qr_url": qr_url,
        # Only a public event has a public feed (events.calendar).
        "calendar_feed": subscribe_links(event_feed_path(event.slug)) if event.is_public else None,
    }


@competition_page("events/competition.html")
def competition(request: HttpRequest, competition: Competition) -> Context:
    entries = [e for e in selectors.entries_for_competition(competition) if not e.withdrawn_at]
    return {
        "entries": entries,
        "counts": selectors.entry_counts(entries),
        "format_public_panel": competition.game_format.public_panel,
        "format_head": competition.game_format.head,
        "corrections": selectors.corrections_of_competition(competition),
    }
