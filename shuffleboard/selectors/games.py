"""One player or one game of a competition, for the pages that show or correct it."""

from __future__ import annotations

from django.http import Http404

from events.models import Competition, Entry
from shuffleboard import rules
from shuffleboard.models import Turn
from shuffleboard.selectors.rota import RotaPlayer, rota_for_competition


def entry_in_competition(competition: Competition, entry_id: int | str) -> Entry:
    """The competition's entry with this id, or 404 (ids of other competitions' entries too)."""
    try:
        return Entry.objects.select_related("player").get(pk=int(entry_id), competition=competition)
    except (TypeError, ValueError, Entry.DoesNotExist) as exc:
        raise Http404 from exc


def _checked_turn(turn: Turn, bonus: bool) -> Turn:
    turn.attention = rules.stored_game_problem(
        turn.counts,
        bonus_counts=turn.bonus_counts,
        max_after=turn.max_after,
        score=turn.score,
        bonus=bonus,
    )
    return turn


def rota_player_with_games(competition: Competition, entry: Entry) -> RotaPlayer | None:
    """One player's place in the rota with their games as full rows (three queries)."""
    player = rota_for_competition(competition, with_turns=False).by_entry(entry.pk)
    if player is not None:
        bonus = competition.options.bonus_disc
        turns = Turn.objects.filter(entry=entry, number__lte=competition.options.games)
        player.turns = {t.number: _checked_turn(t, bonus) for t in turns}  # no play-off games
    return player


def turn_in_competition(competition: Competition, turn_id: int) -> Turn:
    try:
        turn = Turn.objects.select_related("entry__player").get(
            pk=int(turn_id), entry__competition=competition
        )
    except (TypeError, ValueError, Turn.DoesNotExist) as exc:
        raise Http404 from exc
    return _checked_turn(turn, competition.options.bonus_disc)


def turn_of(entry: Entry, number: int) -> Turn | None:
    """The game ``number`` of ``entry`` as stored now, if any (one query)."""
    return Turn.objects.filter(entry=entry, number=number).first()
