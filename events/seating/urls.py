"""The desk's group page, under a competition's desk."""

from django.urls import path

from events.seating import views

desk_routes = [
    path(
        "desk/<slug:event_slug>/<slug:competition_slug>/groups/",
        views.groups,
        name="seating_groups",
    ),
]
