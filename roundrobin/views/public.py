"""The round robin's public pages, live on the players' phones: the tables (standings,
crosstables, tiebreak stages), a player's page and the ratings."""

from __future__ import annotations

from django.http import HttpRequest

from events.live.pages import Context, competition_page
from events.models import Competition
from roundrobin import selectors
from roundrobin.format import ROUNDROBIN
from roundrobin.views.charts import player_charts
from roundrobin.views.rating_chart import elo_chart

# --- public ----------------------------------------------------------------------------------


@competition_page("roundrobin/tables.html", game_format=ROUNDROBIN)
def tables(request: HttpRequest, competition: Competition) -> Context:
    # What every phone polls; the fragment holds nothing personal, so it is shared.
    return {"tables": selectors.tables_for_competition(competition, page=True)}


@competition_page("roundrobin/player.html", game_format=ROUNDROBIN)
def player(request: HttpRequest, competition: Competition, entry_id: int) -> Context:
    page = selectors.player_page(competition, entry_id)
    return {
        "page": page,
        "rating_chart": elo_chart(competition.pk, page.snapshot, page.history),
        "charts": player_charts(competition, page.entry),
    }


@competition_page("roundrobin/ratings.html", game_format=ROUNDROBIN)
def ratings(request: HttpRequest, competition: Competition) -> Context:
    return {"rows": selectors.ratings_for_competition(competition)}
