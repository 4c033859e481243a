"""The desk's page of the widget and the overlays (a competition's), and the club's default
sites: thin, parse the form, call the service, render."""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from events.clubs.http import OWNERS, club_view
from events.clubs.services import role_at
from events.common.http import AuthenticatedHttpRequest
from events.common.siteurl import absolute_url
from events.desk.http import desk_view
from events.embed import selectors, services
from events.embed.forms import EventSitesForm, SitesForm
from events.models import Competition, HostClub
from events.permissions import MANAGE

WIDGET_HEIGHT = 480  # px: ten lines of standings and the link under them


def snippet(url: str, title: str) -> str:
    """The <iframe> a club pastes into its page."""
    return format_html(
        '<iframe src="{}" title="{}" width="100%" height="{}" '
        'style="border:0;max-width:640px" loading="lazy"></iframe>',
        url,
        title,
        WIDGET_HEIGHT,
    )


def overlay_urls(competition: Competition) -> dict[str, object]:
    slugs = [competition.event.slug, competition.slug]
    tables = selectors.stream_tables(competition)
    lower_third = reverse("events:overlay_lower_third", args=slugs)
    return {
        "tables": [
            (table, absolute_url(f"{lower_third}?{urlencode({'table': table.key})}"))
            for table in tables
        ],
        "lower_third_url": absolute_url(lower_third),
        "ticker_url": absolute_url(reverse("events:overlay_ticker", args=slugs)),
        "clock_url": absolute_url(reverse("events:overlay_clock", args=slugs))
        if selectors.clock_template(competition)
        else "",
        "preview_table": tables[0] if tables else None,
        "preview_lines": selectors.ticker_lines(competition)[:8],
    }


@require_http_methods(["GET", "POST"])
@desk_view(allow=MANAGE)
def embed_desk(request: AuthenticatedHttpRequest, competition: Competition) -> HttpResponse:
    event = competition.event
    embed = selectors.event_embed(event)
    form = EventSitesForm(initial={"sites": embed.sites, "with_club_sites": embed.with_club_sites})
    status = 200
    if request.method == "POST":
        form = EventSitesForm(request.POST)
        status = 400
        if form.is_valid():
            services.event_sites_save(event, by=request.user, **form.values())
            messages.success(request, _("The sites are saved: the widget follows at once."))
            return redirect(reverse("events:embed_desk", args=[event.slug, competition.slug]))
    widget_url = absolute_url(reverse("events:widget", args=[event.slug, competition.slug]))
    title = _("Standings: %(name)s") % {"name": competition.name}
    context = {
        "event": event,
        "competition": competition,
        "form": form,
        "widget_url": widget_url,
        "widget_path": reverse("events:widget", args=[event.slug, competition.slug]),
        "snippet": snippet(widget_url, title),
        "club_sites": selectors.lines_of(selectors.club_embed(event.host).sites),
        "manages_club": role_at(event.host, request.user) in OWNERS,
        **overlay_urls(competition),
    }
    return render(request, "events/embed/desk.html", context, status=status)


@require_http_methods(["GET", "POST"])
@club_view(OWNERS)
def club_sites(request: AuthenticatedHttpRequest, club: HostClub) -> HttpResponse:
    embed = selectors.club_embed(club)
    form = SitesForm(initial={"sites": embed.sites})
    status = 200
    if request.method == "POST":
        form = SitesForm(request.POST)
        status = 400
        if form.is_valid():
            services.club_sites_save(club, sites=form.cleaned_data["sites"], by=request.user)
            messages.success(request, _("The sites are saved for every event of the club."))
            return redirect(reverse("events:club_embed", args=[club.slug]))
    return render(request, "events/embed/club.html", {"club": club, "form": form}, status=status)
