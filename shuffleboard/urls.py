from django.urls import path

from events.common.routing import nest
from events.formats import desk_prefix, public_prefix
from shuffleboard import views, views_proposals, views_screen
from shuffleboard.format import SJOELEN

app_name = "shuffleboard"

PUBLIC = public_prefix(SJOELEN)
DESK = desk_prefix(SJOELEN)

routes = [
    # public, for phones
    path(PUBLIC, views.standings, name="standings"),
    path(f"{PUBLIC}rota/", views.rota, name="rota"),
    path(f"{PUBLIC}screen/", views_screen.screen, name="screen"),
    path(f"{PUBLIC}players/<int:entry_id>/", views.player, name="player"),
    path(f"{PUBLIC}board/<int:board>/result/", views_proposals.propose, name="propose"),
    path(
        f"{PUBLIC}board/<int:board>/result/<int:proposal_id>/confirm/",
        views_proposals.confirm,
        name="propose_confirm",
    ),
    # the organiser's desk
    path(DESK, views.score_entry, name="entry"),
    path(f"{DESK}save/", views.turn_record, name="turn_record"),
    path(f"{DESK}preview/", views.turn_preview, name="preview"),
    path(f"{DESK}players/<int:entry_id>/", views.desk_player, name="desk_player"),
    path(f"{DESK}games/<int:turn_id>/", views.turn_edit, name="turn"),
    path(f"{DESK}games/<int:turn_id>/delete/", views.turn_delete, name="turn_delete"),
    path(f"{DESK}playoff/", views.playoff, name="playoff"),
    path(f"{DESK}cards/", views.score_cards, name="cards"),
    path(f"{DESK}status/", views.finish, name="status"),
]
urlpatterns = nest(routes, PUBLIC, DESK)
