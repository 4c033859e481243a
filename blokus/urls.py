from django.urls import path

from blokus import views

app_name = "blokus"

PUBLIC = "e/<slug:event_slug>/<slug:competition_slug>/blokus/"
DESK = "desk/<slug:event_slug>/<slug:competition_slug>/blokus/"

urlpatterns = [
    # public, for phones
    path(PUBLIC, views.overview, name="overview"),
    path(f"{PUBLIC}clock/", views.clock, name="clock"),
    path(f"{PUBLIC}s<int:number>/", views.session, name="session"),
    path(f"{PUBLIC}player/<int:entry_id>/", views.player, name="player"),
    # the organiser's desk
    path(DESK, views.desk, name="desk"),
    path(f"{DESK}sessions/", views.sessions_set_up, name="sessions_set_up"),
    path(f"{DESK}final/", views.final_seat, name="final_seat"),
    path(f"{DESK}s<int:number>/", views.desk_session, name="desk_session"),
    path(f"{DESK}s<int:number>/register/", views.session_register, name="session_register"),
    path(f"{DESK}s<int:number>/seat/", views.session_seat, name="session_seat"),
    path(f"{DESK}s<int:number>/replace/", views.session_replace, name="session_replace"),
    path(f"{DESK}s<int:number>/draw/", views.round_draw, name="round_draw"),
    path(f"{DESK}s<int:number>/not-held/", views.session_not_held, name="session_not_held"),
    path(
        f"{DESK}s<int:number>/p<int:sp_id>/<slug:action>/",
        views.session_player_action,
        name="session_player_action",
    ),
    path(f"{DESK}round/<int:round_id>/start/", views.round_start, name="round_start"),
    path(f"{DESK}round/<int:round_id>/cards/", views.round_cards, name="round_cards"),
    path(f"{DESK}game/<int:game_id>/", views.game_result, name="game_result"),
    path(f"{DESK}game/<int:game_id>/preview/", views.game_preview, name="game_preview"),
]
