from django.urls import path

from events.formats import format_urls
from shuffleboard.format import SJOELEN
from shuffleboard.views import desk, proposals, public, screen

app_name = "shuffleboard"

# public, for phones (under e/<event>/<competition>/<segment>/)
public_routes = [
    path("", public.standings, name="standings"),
    path("rota/", public.rota, name="rota"),
    path("screen/", screen.screen, name="screen"),
    path("players/<int:entry_id>/", public.player, name="player"),
    path("board/<int:board>/result/", proposals.propose, name="propose"),
    path(
        "board/<int:board>/result/<int:proposal_id>/confirm/",
        proposals.confirm,
        name="propose_confirm",
    ),
]
# the organiser's desk (under desk/<event>/<competition>/<segment>/)
desk_routes = [
    path("", desk.score_entry, name="entry"),
    path("save/", desk.turn_record, name="turn_record"),
    path("preview/", desk.turn_preview, name="preview"),
    path("players/<int:entry_id>/", desk.desk_player, name="desk_player"),
    path("games/<int:turn_id>/", desk.turn_edit, name="turn"),
    path("games/<int:turn_id>/delete/", desk.turn_delete, name="turn_delete"),
    path("playoff/", desk.playoff, name="playoff"),
    path("cards/", desk.score_cards, name="cards"),
    path("status/", desk.finish, name="status"),
]
urlpatterns = format_urls(
    SJOELEN, public=public_routes, desk=desk_routes, home="standings", desk_home="entry"
)
