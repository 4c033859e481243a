"""The room's addresses: the widget and the overlays under a competition's public address, the
desk's page of them, and a club's default sites."""

from django.urls import path

from events.embed.views import desk, public

# Before the live pages: "widget" and "overlay" are words a competition's page never takes below
# its own address, but keep the room's routes together and first.
public_routes = [
    path("e/<slug:event_slug>/<slug:competition_slug>/widget/", public.widget, name="widget"),
    path(
        "e/<slug:event_slug>/<slug:competition_slug>/overlay/lower-third/",
        public.lower_third,
        name="overlay_lower_third",
    ),
    path(
        "e/<slug:event_slug>/<slug:competition_slug>/overlay/clock/",
        public.clock,
        name="overlay_clock",
    ),
    path(
        "e/<slug:event_slug>/<slug:competition_slug>/overlay/ticker/",
        public.ticker,
        name="overlay_ticker",
    ),
]
# Before the event desk's competition pages ("clubs" and a competition's slug are both words).
desk_routes = [
    path("desk/clubs/<slug:club_slug>/widget/", desk.club_sites, name="club_embed"),
    path(
        "desk/<slug:event_slug>/<slug:competition_slug>/widget/",
        desk.embed_desk,
        name="embed_desk",
    ),
]
