"""The print kit's desk addresses: the kit page of a competition and each PDF of it."""

from django.urls import path

from events.printing import views

# Before the event desk's competition pages ("print" is a word a competition's slug could be).
desk_routes = [
    path(
        "desk/<slug:event_slug>/<slug:competition_slug>/print/",
        views.kit,
        name="print_kit",
    ),
    path(
        "desk/<slug:event_slug>/<slug:competition_slug>/print/<slug:key>.pdf",
        views.download,
        name="print_download",
    ),
]
