"""The screens' public addresses: a browser asks for a pairing code (``pair_start``), waits for
the desk at its pairing address (``pair_wait``), then shows its screen (``screen_page``).

None of them sets a cookie or carries a CSRF token: the pairing pages are the one browser's
(``no-store``), and the screen's page is the format's own projector page, with its ETag and
stored body, at an address of its own (the stored body is the screen's alone).
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import resolve, reverse
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_safe
from django_htmx.http import HttpResponseClientRedirect

from events import language
from events.common.network import client_ip
from events.common.siteurl import absolute_url
from events.screens import contact, selectors, services
from events.screens.shown import ATTRIBUTE, Shown
from events.services import attempts

# Codes a browser (an address) may ask for in the window: a hall's screens, reloaded a few times.
PAIRINGS_PER_ADDRESS = 20
PAIRING_WINDOW_SECONDS = 600
WAIT_POLL = "every 3s"


def _private(response: HttpResponse) -> HttpResponse:
    patch_cache_control(response, no_store=True, private=True)
    return response


@require_safe
def pair_start(request: HttpRequest) -> HttpResponse:
    """A new code, at an address of its own (a reload shows the same code)."""
    if not attempts.take(
        f"screen-pair:{client_ip(request)}",
        limit=PAIRINGS_PER_ADDRESS,
        seconds=PAIRING_WINDOW_SECONDS,
    ):
        return _private(render(request, "events/screens/pair_refused.html", status=429))
    pairing = services.pairing_start()
    return _private(redirect("events:screen_pair_wait", claim=pairing.claim))


@require_safe
def pair_wait(request: HttpRequest, claim: str) -> HttpResponse:
    """The code, large, until the desk types it; then on to the screen's address. A poll
    (htmx) is answered 204 while nothing changed, so the page stays as it is."""
    pairing = selectors.pairing_by_claim(claim)
    if pairing is None:
        raise Http404
    if pairing.screen is not None:
        target = reverse("events:screen_page", args=[pairing.screen.token])
        if getattr(request, "htmx", False):
            return _private(HttpResponseClientRedirect(target))
        return _private(redirect(target))
    if not selectors.pairing_live(pairing):
        # Expired: a new code, without anybody walking to the screen.
        start = reverse("events:screen_pair")
        if getattr(request, "htmx", False):
            return _private(HttpResponseClientRedirect(start))
        return _private(redirect(start))
    if getattr(request, "htmx", False):
        return _private(HttpResponse(status=204))
    context = {
        "code": pairing.code,
        "poll": WAIT_POLL,
        "desk_url": absolute_url(reverse("events:desk")),
    }
    return _private(render(request, "events/screens/pair.html", context))


@require_safe
def screen_page(request: HttpRequest, token: str) -> HttpResponse:
    """The screen's page: the projector page of its competition's format, as the desk chose
    it. One query finds the screen; the format's page then decides 304 or renders."""
    screen = selectors.screen_by_token(token)
    if screen is None:
        raise Http404
    contact.seen(screen.pk)
    competition = screen.competition or next(iter(selectors.competitions_of(screen.event)), None)
    if competition is None:
        return _private(render(request, "events/screens/empty.html", {"screen": screen}))
    if language.chosen_language(request) is None:
        language.activate_event_language(request, screen.event.language)
    round_id = screen.round_id if screen.follows_round else None
    shown = Shown(
        shows=screen.shows,
        announcement=screen.announcement,
        paused=screen.paused,
        sign_up_url=absolute_url(reverse("events:signup", args=[screen.event.slug])),
        round_over=(lambda: selectors.round_over(round_id)) if screen.follows_round else _never,
    )
    setattr(request, ATTRIBUTE, shown)
    page = resolve(
        reverse(competition.game_format.screen, args=[screen.event.slug, competition.slug])
    )
    return page.func(request, *page.args, **page.kwargs)


def _never() -> bool:
    return False
