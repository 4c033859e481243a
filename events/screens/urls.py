"""The screens' addresses: the public ones a projector's browser opens, and the desk's."""

from django.urls import path

from events.screens.views import desk, public

public_routes = [
    path("screen/", public.pair_start, name="screen_pair"),
    path("screen/pair/<str:claim>/", public.pair_wait, name="screen_pair_wait"),
    path("screen/<str:token>/", public.screen_page, name="screen_page"),
]
# Before the event desk's competition pages ("screens" is a word a competition's slug could be).
desk_routes = [
    path("desk/<slug:event_slug>/screens/", desk.screen_list, name="screens"),
    path(
        "desk/<slug:event_slug>/screens/<int:screen_id>/show/",
        desk.screen_show,
        name="screen_show",
    ),
    path(
        "desk/<slug:event_slug>/screens/<int:screen_id>/<slug:action>/",
        desk.screen_action,
        name="screen_action",
    ),
]
