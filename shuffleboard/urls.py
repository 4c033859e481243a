from django.urls import path

from events.common.routing import nest
from events.formats import desk_prefix, public_prefix
from shuffleboard.format import SJOELEN
from shuffleboard.views import desk, proposals, public, screen

app_name = "shuffleboard"

PUBLIC = public_prefix(SJOELEN)
DESK = desk_prefix(SJOELEN)

routes = [
    # public, for phones
    path(PUBLIC, public.standings, name="standings"),
    path(f"{PUBLIC}rota/", public.rota, name="rota"),
    path(f"{PUBLIC}screen/", screen.screen, name="screen"),
    path(f"{PUBLIC}players/<int:entry_id>/", public.player, name="player"),
    path(f"{PUBLIC}board/<int:board>/result/", proposals.propose, name="propose"),
    path(
        f"{PUBLIC}board/<int:board>/result/<int:proposal_id>/confirm/",
        proposals.confirm,
        name="propose_confirm",
    ),
    # the organiser's desk
    path(DESK, desk.score_entry, name="entry"),
    path(f"{DESK}save/", desk.turn_record, name="turn_record"),
    path(f"{DESK}preview/", desk.turn_preview, name="preview"),
    path(f"{DESK}players/<int:entry_id>/", desk.desk_player, name="desk_player"),
    path(f"{DESK}games/<int:turn_id>/", desk.turn_edit, name="turn"),
    path(f"{DESK}games/<int:turn_id>/delete/", desk.turn_delete, name="turn_delete"),
    path(f"{DESK}playoff/", desk.playoff, name="playoff"),
    path(f"{DESK}cards/", desk.score_cards, name="cards"),
    path(f"{DESK}status/", desk.finish, name="status"),
    # The start pages under the names every format has (events.formats.GameFormat).
    path(PUBLIC, public.standings, name="home"),
    path(DESK, desk.score_entry, name="desk_home"),
]
urlpatterns = nest(routes, PUBLIC, DESK)
