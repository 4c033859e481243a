"""A club's public pages: its page (``/c/<club>/``) and its stylesheet (the colours)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.views.decorators.http import require_GET

from events.calendar.links import club_feed_path, subscribe_links
from events.clubs import selectors
from events.common import colours

# A stylesheet whose address carries its colours (``?v=``) never changes: a year.
STYLE_MAX_AGE = 365 * 24 * 3600


@require_GET
def club_page(request: HttpRequest, club_slug: str) -> HttpResponse:
    page = selectors.club_page(club_slug, timezone.localdate())
    context = {
        "club": page.club,
        "page": page,
        "calendar_feed": subscribe_links(club_feed_path(page.club.slug)),
    }
    response = render(request, "events/clubs/club.html", context)
    if not request.user.is_authenticated:
        patch_cache_control(response, public=True, max_age=60)
    patch_vary_headers(response, ["Cookie", "Accept-Language"])
    return response


def club_css(band: str, stripe: str) -> str:
    """The custom properties the club band reads (static/css/site.css, ``.club-band``)."""
    lines = []
    if band and colours.HEX.match(band):
        lines += [f"--club-band: {band};", f"--club-band-text: {colours.text_on(band)};"]
    if stripe and colours.HEX.match(stripe):
        lines.append(f"--club-stripe: {stripe};")
    return ":root {\n  " + "\n  ".join(lines) + "\n}\n" if lines else "/* no colours */\n"


@require_GET
def club_style(request: HttpRequest, club_slug: str) -> HttpResponse:
    """The club's colours as a stylesheet: a file of our own, so the Content-Security-Policy
    needs no inline style."""
    club = selectors.public_club_by_slug(club_slug)
    response = HttpResponse(
        club_css(club.band_colour, club.stripe_colour), content_type="text/css; charset=utf-8"
    )
    if request.GET.get("v") == club.style_version:
        patch_cache_control(response, public=True, max_age=STYLE_MAX_AGE, immutable=True)
    else:
        patch_cache_control(response, public=True, max_age=60)
    return response
