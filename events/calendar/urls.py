"""Calendar feeds: an event's public times, a player's own behind a signed token."""

from django.urls import path

from events.calendar import views

public_routes = [
    path("e/<slug:event_slug>/calendar.ics", views.event_feed, name="calendar_event"),
    path("calendar/<str:token>.ics", views.player_feed, name="calendar_player"),
    path("c/<slug:club_slug>/calendar.ics", views.club_feed, name="calendar_club"),
]
