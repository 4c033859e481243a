from django.urls import path

from roundrobin import views

app_name = "roundrobin"

PUBLIC = "e/<slug:event_slug>/<slug:competition_slug>/"
DESK = "desk/<slug:event_slug>/<slug:competition_slug>/"

urlpatterns = [
    # public, live
    path(PUBLIC + "tables/", views.tables, name="tables"),
    path(PUBLIC + "players/<int:entry_id>/", views.player, name="player"),
    path(PUBLIC + "ratings/", views.ratings, name="ratings"),
    # the organiser's pages
    path(DESK + "tables/", views.desk, name="desk"),
    path(DESK + "tables/start/", views.start, name="start"),
    path(DESK + "tables/<int:number>/", views.desk_table, name="desk_table"),
    path(DESK + "games/<int:game_id>/result/", views.game_result, name="game_result"),
    path(DESK + "withdraw/<int:entry_id>/", views.withdraw, name="withdraw"),
    path(DESK + "links/", views.links, name="links"),
    # a player's private page (the token is the key) and the game servers' JSON API
    path("p/<str:token>/", views.private, name="private"),
    path("api/roundrobin/games/", views.api, name="api_games"),
    path("api/roundrobin/games/<int:game_id>/", views.api, name="api_game"),
    path(
        "api/roundrobin/games/<int:game_id>/move/",
        views.api,
        {"action": "move"},
        name="api_move",
    ),
    path(
        "api/roundrobin/games/<int:game_id>/result/",
        views.api,
        {"action": "result"},
        name="api_result",
    ),
    # Anything else under the API (a game id that is not a number, an unknown action): JSON 404.
    path("api/roundrobin/<path:rest>", views.api_not_found, name="api_not_found"),
]
