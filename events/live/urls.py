"""The core's public pages: the front page, an event, a competition (a format's pages hang
below it, ``events.formats.declaration``)."""

from django.urls import path

from events.live import views

front = [
    path("", views.index, name="index"),
    path("e/<slug:event_slug>/", views.event, name="event"),
]
# After the rooms' routes of the same shape (an event's sign-up page): a competition's slug
# could be any word.
competition = [
    path("e/<slug:event_slug>/<slug:competition_slug>/", views.competition, name="competition"),
]
