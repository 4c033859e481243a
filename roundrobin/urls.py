from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponseBase, HttpResponseGone, HttpResponseRedirect
from django.urls import path
from django.views.generic import RedirectView

from events.common.routing import nest
from events.formats import DESK as OLD_DESK, PUBLIC as OLD_PUBLIC, format_urls
from roundrobin.format import ROUNDROBIN
from roundrobin.views import api, desk, private, public, screen

app_name = "roundrobin"

API = "api/roundrobin/"


class MovedPermanently(RedirectView):
    """GET and HEAD answer 301; a form posted from a page loaded before the move answers 308,
    which browsers follow with the same method and body."""

    permanent = True
    query_string = True
    http_method_names = ["get", "head", "post"]

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        url = self.get_redirect_url(*args, **kwargs)
        if url is None:
            return HttpResponseGone()
        response = HttpResponseRedirect(url)
        response.status_code = 308
        return response


def moved_to(name: str) -> Callable[..., HttpResponseBase]:
    """A permanent redirect from the address a page had before it moved under the format's
    segment: printed QR codes, bookmarks and open desk pages keep working (query kept)."""
    return MovedPermanently.as_view(pattern_name=f"{app_name}:{name}")


# public, for phones (under e/<event>/<competition>/<segment>/)
public_routes = [
    path("tables/", public.tables, name="tables"),
    path("players/<int:entry_id>/", public.player, name="player"),
    path("ratings/", public.ratings, name="ratings"),
    path("screen/", screen.screen, name="screen"),
]
# the organiser's desk (under desk/<event>/<competition>/<segment>/)
desk_routes = [
    path("tables/", desk.desk, name="desk"),
    path("tables/start/", desk.start, name="start"),
    path("tables/<int:number>/", desk.desk_table, name="desk_table"),
    path("tables/<int:number>/adjudicate/", desk.adjudicate, name="adjudicate"),
    path("tables/<int:number>/leave/", desk.desk_leave, name="desk_leave"),
    path("games/<int:game_id>/result/", desk.game_result, name="game_result"),
    path("withdraw/<int:entry_id>/", desk.withdraw, name="withdraw"),
    path("links/", desk.links, name="links"),
]
more = [
    # a player's private page: the link (the token is the key) sets a cookie and redirects to
    # the page's own address, which carries no token
    path("p/player/<int:entry_id>/", private.private_page, name="private_page"),
    path("p/player/<int:entry_id>/notify/", private.private_notify, name="private_notify"),
    path("p/<str:token>/", private.private, name="private"),
    # the game servers' JSON API
    path(f"{API}games/", api.games, name="api_games"),
    path(f"{API}games/<int:game_id>/", api.game, name="api_game"),
    path(f"{API}games/<int:game_id>/move/", api.move, name="api_move"),
    path(f"{API}games/<int:game_id>/result/", api.result, name="api_result"),
    # Anything else under the API (a game id that is not a number, an unknown action): JSON 404.
    path(f"{API}<path:rest>", api.not_found, name="api_not_found"),
    # the addresses before the format segment
    path(f"{OLD_PUBLIC}tables/", moved_to("tables")),
    path(f"{OLD_PUBLIC}players/<int:entry_id>/", moved_to("player")),
    path(f"{OLD_PUBLIC}ratings/", moved_to("ratings")),
    path(f"{OLD_DESK}tables/", moved_to("desk")),
    path(f"{OLD_DESK}tables/start/", moved_to("start")),
    path(f"{OLD_DESK}tables/<int:number>/", moved_to("desk_table")),
    path(f"{OLD_DESK}games/<int:game_id>/result/", moved_to("game_result")),
    path(f"{OLD_DESK}withdraw/<int:entry_id>/", moved_to("withdraw")),
    path(f"{OLD_DESK}links/", moved_to("links")),
]
urlpatterns = format_urls(
    ROUNDROBIN, public=public_routes, desk=desk_routes, home="tables", desk_home="desk"
)
urlpatterns += nest(more, API, OLD_PUBLIC, OLD_DESK)
