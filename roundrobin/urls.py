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
]
