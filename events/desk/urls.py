"""The core's organiser pages: the desk's start, an event's desk and its people, a
competition's desk (registration, check-in, imports, downloads, proposals), and the
actions on one entry or correction. The rooms' desk pages are in their own ``urls.py``."""

from django.urls import path

from events.desk.views import (
    checkin,
    competition,
    corrections,
    downloads,
    edit,
    event,
    imports,
    proposals,
    registration,
    service_worker,
)

start = [
    path("desk/", event.desk, name="desk"),
    path("desk/new/", event.event_create, name="event_create"),
    path("desk/sw.js", service_worker.service_worker, name="desk_service_worker"),
]
events = [
    path("desk/<slug:event_slug>/", event.event_desk, name="event_desk"),
    path("desk/<slug:event_slug>/organisers/", event.organiser_add, name="organiser_add"),
    path("desk/<slug:event_slug>/export.json", downloads.event_export, name="event_export"),
    path("desk/<slug:event_slug>/edit/", edit.event_edit, name="event_edit"),
    path("desk/<slug:event_slug>/people/", edit.people, name="people"),
    path(
        "desk/<slug:event_slug>/people/<int:user_id>/remove/",
        edit.person_remove,
        name="person_remove",
    ),
    path(
        "desk/<slug:event_slug>/players/<int:player_id>/",
        edit.player_edit,
        name="player_edit",
    ),
    path(
        "desk/<slug:event_slug>/competitions/",
        event.competition_create,
        name="competition_create",
    ),
    path(
        "desk/<slug:event_slug>/<slug:competition_slug>/",
        competition.competition_desk,
        name="competition_desk",
    ),
    path(
        "desk/<slug:event_slug>/<slug:competition_slug>/settings/",
        competition.competition_settings,
        name="competition_settings",
    ),
    path(
        "desk/<slug:event_slug>/<slug:competition_slug>/edit/",
        edit.competition_edit,
        name="competition_edit",
    ),
    path(
        "desk/<slug:event_slug>/<slug:competition_slug>/search/",
        registration.player_search,
        name="player_search",
    ),
    path(
        "desk/<slug:event_slug>/<slug:competition_slug>/register/",
        registration.register_known,
        name="register_known",
    ),
    path(
        "desk/<slug:event_slug>/<slug:competition_slug>/register-new/",
        registration.register_new,
        name="register_new",
    ),
    path(
        "desk/<slug:event_slug>/<slug:competition_slug>/export/<slug:kind>.<slug:file_format>",
        downloads.competition_export,
        name="competition_export",
    ),
    path(
        "desk/<slug:event_slug>/<slug:competition_slug>/import/",
        imports.csv_import,
        name="csv_import",
    ),
    path(
        "desk/<slug:event_slug>/<slug:competition_slug>/check-in/",
        checkin.check_in_typed,
        name="check_in_typed",
    ),
    path(
        "desk/<slug:event_slug>/<slug:competition_slug>/import/confirm/",
        imports.csv_import_confirm,
        name="csv_import_confirm",
    ),
    path(
        "desk/<slug:event_slug>/<slug:competition_slug>/proposals/",
        proposals.proposal_list,
        name="proposals",
    ),
    path(
        "desk/<slug:event_slug>/<slug:competition_slug>/proposals/<int:proposal_id>/accept/",
        proposals.proposal_accept,
        name="proposal_accept",
    ),
    path(
        "desk/<slug:event_slug>/<slug:competition_slug>/proposals/<int:proposal_id>/reject/",
        proposals.proposal_reject,
        name="proposal_reject",
    ),
]
entries = [
    path("desk/entries/<int:entry_id>/remove/", edit.entry_remove, name="entry_remove"),
    path(
        "desk/entries/<int:entry_id>/<slug:action>/",
        registration.entry_action,
        name="entry_action",
    ),
    path(
        "desk/corrections/<int:correction_id>/undo/",
        corrections.correction_undo,
        name="correction_undo",
    ),
]
