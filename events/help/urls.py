"""The addresses of the calls for help by audience: the players' (a table's or a player's
form, the call's own page) and the desk's (the event's queue, its badge, take and close)."""

from django.urls import path

from events.help.views import desk, public

# Before a competition's pages: "help" is a word a competition's slug could be.
public_routes = [
    path("e/<slug:event_slug>/help/<str:token>/", public.help_call, name="help_call"),
    path(
        "e/<slug:event_slug>/<slug:competition_slug>/help/table/<int:table>/",
        public.help_table,
        name="help_table",
    ),
    path(
        "e/<slug:event_slug>/<slug:competition_slug>/help/player/<int:entry_id>/",
        public.help_player,
        name="help_player",
    ),
]
desk_routes = [
    path("desk/<slug:event_slug>/help/", desk.help_queue, name="help_queue"),
    path("desk/<slug:event_slug>/help/badge/", desk.help_badge, name="help_badge"),
    path("desk/<slug:event_slug>/help/<int:call_id>/take/", desk.help_take, name="help_take"),
    path("desk/<slug:event_slug>/help/<int:call_id>/close/", desk.help_close, name="help_close"),
]
