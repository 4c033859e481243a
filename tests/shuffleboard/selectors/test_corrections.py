"""What a correction would do to 1st place (``shuffleboard.selectors.corrections``), once the
standings are final, and the correction trail of a player, a game and a competition."""

from __future__ import annotations

from shuffleboard import selectors, services
from shuffleboard.models import Turn
from shuffleboard.selectors.standings import entry_facts


def test_standings_are_final_once_every_playing_player_has_every_game(final):
    competition, anna, bert = final
    entries = entry_facts(competition)
    rows = selectors.game_rows(competition)
    assert selectors.standings_final(competition, entries, rows)
    Turn.objects.filter(entry=bert, number=2).delete()
    assert not selectors.standings_final(
        competition, entry_facts(competition), selectors.game_rows(competition)
    )


def test_a_correction_that_swaps_first_place_names_both_moves(final):
    competition, anna, bert = final
    # Anna's 88 becomes 20: 168 against Bert's 232.
    moves = selectors.first_place_moves(competition, remove=[(anna.pk, 2)], put=(anna.pk, 2, 20))
    assert [str(m) for m in moves] == ["Anna moves from 1st to 2nd", "Bert moves from 2nd to 1st"]
    assert (
        selectors.first_place_moves(competition, remove=[(bert.pk, 1)], put=(bert.pk, 1, 120)) == []
    )


def test_nothing_to_warn_about_while_games_are_still_to_play(played):
    a = played[0]
    assert selectors.first_place_moves(a.competition, remove=[(a.pk, 1)], put=(a.pk, 1, 0)) == []


def test_the_trail_lists_a_games_corrections_newest_first(playing, organiser):
    entry = playing[0]
    turn = services.turn_record(entry=entry, number=1, counts=(5, 9, 5, 7))
    turn = services.turn_correct(
        turn=turn, revision=turn.revision, counts=(5, 9, 5, 8), entered_by=organiser
    )
    services.turn_correct(
        turn=turn, revision=turn.revision, counts=(5, 9, 5, 6), entered_by=organiser
    )
    game = selectors.corrections_of_game(entry, 1)
    assert len(game) == 2 and game[0].pk > game[1].pk
    assert not any(c.is_undone for c in game)
    assert [c.pk for c in selectors.corrections_of_entry(entry)] == [c.pk for c in game]
    assert selectors.corrections_of_game(entry, 2) == []
    assert len(selectors.corrections_of_competition(entry.competition, limit=1)) == 1
