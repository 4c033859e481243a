"""Sjoelen public pages, for the players' phones (live): the standings, a player's page and the
board rota."""

from __future__ import annotations

from django.http import Http404
from django.urls import reverse
from django.utils.translation import gettext as _

from events.common.http import HtmxHttpRequest
from events.live.pages import Context, competition_page
from events.models import Competition
from shuffleboard import selectors
from shuffleboard.format import SJOELEN, SjoelenSettings
from shuffleboard.forms import RANKING_CHOICES, TIEBREAK_CHOICES, optional_numbers
from shuffleboard.rules import BOARD_ORDER
from shuffleboard.views.charts import player_charts


def _players_url(competition: Competition) -> str:
    """One reverse() instead of one per row: ``{{ players_url }}{{ id }}/``."""
    args = [competition.event.slug, competition.slug, 0]
    return reverse("shuffleboard:player", args=args).removesuffix("0/")


def _ranking_note(options: SjoelenSettings) -> str:
    ranking = dict(RANKING_CHOICES).get(options.ranking, RANKING_CHOICES[0][1])
    ties = dict(TIEBREAK_CHOICES).get(options.tiebreaks, TIEBREAK_CHOICES[0][1])
    return _("Ranked by: %(ranking)s. Equal players: %(ties)s.") % {
        "ranking": ranking,
        "ties": str(ties).lower(),
    }


LATEST_CORRECTIONS = 5


@competition_page("shuffleboard/standings.html", game_format=SJOELEN)
def standings(request: HtmxHttpRequest, competition: Competition) -> Context:
    shown = selectors.standings_with_options(competition)
    return {
        "standings": shown.standings,
        "playoff": shown.playoff.in_public() if shown.playoff else None,
        "class_groups": shown.classes,
        "players_url": _players_url(competition),
        "ranking_note": _ranking_note(competition.options),
        "corrections": selectors.corrections_of_competition(competition, LATEST_CORRECTIONS),
    }


@competition_page("shuffleboard/player.html", game_format=SJOELEN)
def player(request: HtmxHttpRequest, competition: Competition, entry_id: int) -> Context:
    entry = selectors.entry_in_competition(competition, entry_id)
    if entry.withdrawn_at and not entry.checked_in_at:
        raise Http404
    rota_player = selectors.rota_player_with_games(competition, entry)
    shown = selectors.standings_with_options(competition)
    rows = shown.standings.rows
    player_class = next(
        (g.name for g in shown.classes for *_, row, _ in g.rows if row.entry_id == entry.pk), ""
    )
    playoff = shown.playoff
    return {
        # The title play-off's games are not in the rota's rows (numbers above the last game).
        "in_playoff": playoff is not None and entry.pk in playoff.names,
        "playoff_games": [
            (game.round, game.score)
            for game in (playoff.played if playoff else [])
            if game.entry_id == entry.pk
        ],
        "entry": entry,
        "rota_player": rota_player,
        "row": next((r for r in rows if r.entry_id == entry.pk), None),
        "player_class": player_class,
        "games": rota_player.game_rows if rota_player else [],
        "board_order": BOARD_ORDER,
        "corrections": selectors.corrections_of_entry(entry),
        "charts": player_charts(competition, entry) if rota_player else [],
    }


@competition_page("shuffleboard/rota.html", game_format=SJOELEN)
def rota(request: HtmxHttpRequest, competition: Competition) -> Context:
    board_rota = selectors.rota_for_competition(competition)
    [wanted] = optional_numbers(request.GET, "game")
    number = board_rota.game_to_show(wanted)
    return {
        "rota": board_rota,
        "number": number,
        "table": list(zip(board_rota.board_numbers, board_rota.table(number), strict=True)),
        "players_url": _players_url(competition),
    }
