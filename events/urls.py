from django.urls import path

from events import views

app_name = "events"

urlpatterns = [
    # public, for phones
    path("", views.index, name="index"),
    path("e/<slug:event_slug>/", views.event, name="event"),
    path("e/<slug:event_slug>/<slug:competition_slug>/", views.competition, name="competition"),
    # the organiser's desk
    path("desk/", views.desk, name="desk"),
    path("desk/new/", views.event_create, name="event_create"),
    path("desk/<slug:event_slug>/", views.event_desk, name="event_desk"),
    path("desk/<slug:event_slug>/organisers/", views.organiser_add, name="organiser_add"),
    path(
        "desk/<slug:event_slug>/competitions/",
        views.competition_create,
        name="competition_create",
    ),
    path(
        "desk/<slug:event_slug>/<slug:competition_slug>/",
        views.competition_desk,
        name="competition_desk",
    ),
    path(
        "desk/<slug:event_slug>/<slug:competition_slug>/settings/",
        views.competition_settings,
        name="competition_settings",
    ),
    path(
        "desk/<slug:event_slug>/<slug:competition_slug>/search/",
        views.player_search,
        name="player_search",
    ),
    path(
        "desk/<slug:event_slug>/<slug:competition_slug>/register/",
        views.register_known,
        name="register_known",
    ),
    path(
        "desk/<slug:event_slug>/<slug:competition_slug>/register-new/",
        views.register_new,
        name="register_new",
    ),
    path(
        "desk/<slug:event_slug>/<slug:competition_slug>/import/",
        views.csv_import,
        name="csv_import",
    ),
    path("desk/entries/<int:entry_id>/<slug:action>/", views.entry_action, name="entry_action"),
    path(
        "desk/corrections/<int:correction_id>/undo/",
        views.correction_undo,
        name="correction_undo",
    ),
]
