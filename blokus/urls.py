from django.urls import path

from blokus.format import BLOKUS
from blokus.views import clock, desk, proposals, public, results, screen
from events.common.routing import nest
from events.formats import desk_prefix, public_prefix

app_name = "blokus"

PUBLIC = public_prefix(BLOKUS)
DESK = desk_prefix(BLOKUS)

routes = [
    # public, for phones
    path(PUBLIC, public.overview, name="overview"),
    path(f"{PUBLIC}clock/", public.clock, name="clock"),
    path(f"{PUBLIC}screen/", screen.screen, name="screen"),
    path(f"{PUBLIC}s<int:number>/", public.session, name="session"),
    path(f"{PUBLIC}player/<int:entry_id>/", public.player, name="player"),
    path(f"{PUBLIC}table/<int:game_id>/result/", proposals.propose, name="propose"),
    path(
        f"{PUBLIC}table/<int:game_id>/result/<int:proposal_id>/confirm/",
        proposals.confirm,
        name="propose_confirm",
    ),
    # the organiser's desk
    path(DESK, desk.desk, name="desk"),
    path(f"{DESK}sessions/", desk.sessions_set_up, name="sessions_set_up"),
    path(f"{DESK}final/", desk.final_seat, name="final_seat"),
    path(f"{DESK}s<int:number>/", desk.desk_session, name="desk_session"),
    path(f"{DESK}s<int:number>/register/", desk.session_register, name="session_register"),
    path(f"{DESK}s<int:number>/seat/", desk.session_seat, name="session_seat"),
    path(f"{DESK}s<int:number>/replace/", desk.session_replace, name="session_replace"),
    path(f"{DESK}s<int:number>/draw/", desk.round_draw, name="round_draw"),
    path(f"{DESK}s<int:number>/not-held/", desk.session_not_held, name="session_not_held"),
    path(
        f"{DESK}s<int:number>/p<int:sp_id>/<slug:action>/",
        desk.session_player_action,
        name="session_player_action",
    ),
    path(f"{DESK}round/<int:round_id>/start/", desk.round_start, name="round_start"),
    path(f"{DESK}clock/", clock.desk_clock, name="desk_clock"),
    path(f"{DESK}round/<int:round_id>/clock/pause/", clock.clock_pause, name="clock_pause"),
    path(f"{DESK}round/<int:round_id>/clock/resume/", clock.clock_resume, name="clock_resume"),
    path(f"{DESK}round/<int:round_id>/clock/adjust/", clock.clock_adjust, name="clock_adjust"),
    path(f"{DESK}round/<int:round_id>/cards/", desk.round_cards, name="round_cards"),
    path(f"{DESK}game/<int:game_id>/", results.game_result, name="game_result"),
    path(f"{DESK}game/<int:game_id>/preview/", results.game_preview, name="game_preview"),
    # The start pages under the names every format has (events.formats.GameFormat).
    path(PUBLIC, public.overview, name="home"),
    path(DESK, desk.desk, name="desk_home"),
]
urlpatterns = nest(routes, PUBLIC, DESK)
