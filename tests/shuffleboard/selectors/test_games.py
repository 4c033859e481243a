"""One player or one game of a competition (``shuffleboard.selectors.games``): 404 for anything
not of this competition, and a stored game that breaks the rules marked for attention."""

from __future__ import annotations

import pytest
from django.http import Http404

from shuffleboard import selectors, services
from tests.support.shuffleboard import SjoelenFactory, sjoelen_night


def test_an_entry_is_found_only_in_its_own_competition(played):
    competition = played[0].competition
    assert selectors.entry_in_competition(competition, str(played[0].pk)) == played[0]
    other = SjoelenFactory(event=competition.event, slug="other")
    with pytest.raises(Http404):
        selectors.entry_in_competition(other, played[0].pk)
    with pytest.raises(Http404):
        selectors.entry_in_competition(competition, "x")


def test_a_game_stored_under_other_settings_needs_attention(event):
    competition, (entry,) = sjoelen_night(
        {"Ann": []}, event=event, settings={"games": 2, "boards": 1, "bonus_disc": True}
    )
    turn = services.turn_record(
        entry=entry, number=1, counts=(7, 7, 7, 9), bonus_counts=(0, 0, 0, 2), max_after=1
    )
    assert selectors.turn_in_competition(competition, turn.pk).attention is None
    competition.settings = {**competition.settings, "bonus_disc": False}
    competition.save(update_fields=["settings"])
    assert selectors.turn_in_competition(competition, turn.pk).attention  # bonus discs now off
    other = SjoelenFactory(event=event, slug="other")
    with pytest.raises(Http404):
        selectors.turn_in_competition(other, turn.pk)
    with pytest.raises(Http404):
        selectors.turn_in_competition(competition, "nope")


def test_a_players_rota_place_lists_the_games_but_not_the_play_off(tied):
    competition, a, b, c = tied
    services.turn_record(entry=c, number=2, counts=(1, 1, 1, 1))
    services.playoff_record(entry=a, counts=(0, 0, 0, 30))
    player = selectors.rota_player_with_games(competition, a)
    assert sorted(player.turns) == [1, 2]
    assert selectors.turn_of(a, 3).score == 120 and selectors.turn_of(a, 9) is None


def test_a_player_not_in_the_rota_has_no_place(event):
    competition, (entry,) = sjoelen_night({"Ann": []}, event=event)
    entry.checked_in_at = None
    entry.save(update_fields=["checked_in_at"])
    assert selectors.rota_player_with_games(competition, entry) is None
