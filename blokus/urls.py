from django.urls import path

from blokus.format import BLOKUS
from blokus.views import clock, desk, proposals, public, rating, results, screen, seating
from events.formats import format_urls

app_name = "blokus"

# public, for phones (under e/<event>/<competition>/<segment>/)
public_routes = [
    path("", public.overview, name="overview"),
    path("clock/", public.clock, name="clock"),
    path("screen/", screen.screen, name="screen"),
    path("s<int:number>/", public.session, name="session"),
    path("player/<int:entry_id>/", public.player, name="player"),
    path("table/<int:game_id>/result/", proposals.propose, name="propose"),
    path(
        "table/<int:game_id>/result/<int:proposal_id>/confirm/",
        proposals.confirm,
        name="propose_confirm",
    ),
]
# the organiser's desk (under desk/<event>/<competition>/<segment>/)
desk_routes = [
    path("", desk.desk, name="desk"),
    path("sessions/", desk.sessions_set_up, name="sessions_set_up"),
    path("final/", desk.final_seat, name="final_seat"),
    path("s<int:number>/", desk.desk_session, name="desk_session"),
    path("s<int:number>/register/", desk.session_register, name="session_register"),
    path("s<int:number>/waitlist/", desk.session_waitlisted, name="session_waitlisted"),
    path("s<int:number>/seat/", desk.session_seat, name="session_seat"),
    path("s<int:number>/replace/", desk.session_replace, name="session_replace"),
    path("s<int:number>/draw/", desk.round_draw, name="round_draw"),
    path("s<int:number>/not-held/", desk.session_not_held, name="session_not_held"),
    path(
        "s<int:number>/p<int:sp_id>/<slug:action>/",
        desk.session_player_action,
        name="session_player_action",
    ),
    path("round/<int:round_id>/start/", desk.round_start, name="round_start"),
    path("round/<int:round_id>/redraw/", seating.round_redraw, name="round_redraw"),
    path("clock/", clock.desk_clock, name="desk_clock"),
    path("round/<int:round_id>/clock/pause/", clock.clock_pause, name="clock_pause"),
    path("round/<int:round_id>/clock/resume/", clock.clock_resume, name="clock_resume"),
    path("round/<int:round_id>/clock/adjust/", clock.clock_adjust, name="clock_adjust"),
    path("round/<int:round_id>/cards/", desk.round_cards, name="round_cards"),
    path("game/<int:game_id>/", results.game_result, name="game_result"),
    path("game/<int:game_id>/preview/", results.game_preview, name="game_preview"),
]
# the rating across all events, public: /blokus/ratings/
rating_routes = [
    path(f"{BLOKUS.url_segment}/ratings/", rating.rating_list, name="rating_list"),
    path(
        f"{BLOKUS.url_segment}/ratings/<int:player_id>/", rating.rating_player, name="rating_player"
    ),
    path(
        f"{BLOKUS.url_segment}/ratings.<slug:file_format>",
        rating.rating_download,
        name="rating_download",
    ),
]
urlpatterns = [
    *format_urls(BLOKUS, public=public_routes, desk=desk_routes, home="overview", desk_home="desk"),
    *rating_routes,
]
