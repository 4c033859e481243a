"""A series' addresses: its public pages (page, screen, a player, downloads) and the desk's."""

from django.urls import path

from events.series.views import desk, public

public_routes = [
    path("series/", public.series_index, name="series_index"),
    path("series/<slug:series_slug>/", public.series, name="series_public"),
    path("series/<slug:series_slug>/screen/", public.series_screen, name="series_screen"),
    path(
        "series/<slug:series_slug>/players/<int:player_id>/",
        public.series_player,
        name="series_player",
    ),
    path(
        "series/<slug:series_slug>/players/<int:player_id>/why/",
        public.series_why,
        name="series_why",
    ),
    path(
        "series/<slug:series_slug>/standings.<slug:file_format>",
        public.series_download,
        name="series_download",
    ),
]
# Before the desk's event pages: "series" is a word an event's slug could be.
desk_routes = [
    path("desk/series/", desk.series_list, name="series_desk_list"),
    path("desk/series/<slug:series_slug>/", desk.series_desk, name="series_desk"),
    path("desk/series/<slug:series_slug>/join/", desk.series_join, name="series_join"),
    path(
        "desk/series/<slug:series_slug>/members/<int:member_id>/<slug:action>/",
        desk.series_member,
        name="series_member",
    ),
    path(
        "desk/series/<slug:series_slug>/standings.<slug:file_format>",
        desk.series_desk_download,
        name="series_desk_download",
    ),
]
