"""Correcting, removing and undoing games (``shuffleboard.services.corrections``): the trail,
stale and unconfirmed changes, the play-off and sub-turns kept."""

from __future__ import annotations

import pytest

from events.errors import Invalid, Refused, Stale
from events.models import Correction
from events.services import correction_undo
from shuffleboard import services
from shuffleboard.models import Turn
from shuffleboard.selectors import standings_with_options
from tests.support.shuffleboard import (
    SUB_TURN_ROWS,
    PlayingEntryFactory,
    SjoelenFactory,
    competition_version,
    url,
)


def test_a_correction_keeps_the_history_and_bumps_the_revision(playing, organiser):
    turn = services.turn_record(entry=playing[0], number=1, counts=(5, 9, 5, 7))
    before = competition_version(playing[0].competition)
    corrected = services.turn_correct(
        turn=turn, revision=1, counts=(7, 7, 7, 9), entered_by=organiser
    )
    assert corrected.score == 148
    assert corrected.revision == 2
    assert [h.score for h in corrected.history.order_by("history_date")] == [116, 148]
    assert competition_version(playing[0].competition) == before + 1


def test_a_stale_correction_is_refused_with_the_current_value(playing):
    turn = services.turn_record(entry=playing[0], number=1, counts=(5, 9, 5, 7))
    services.turn_correct(turn=turn, revision=1, counts=(1, 1, 1, 1))
    with pytest.raises(Stale) as info:
        services.turn_correct(turn=turn, revision=1, counts=(0, 0, 0, 30))
    assert info.value.code == "stale"
    assert info.value.http_status == 409
    assert "2→1 3→1 4→1 1→1 = 20" in info.value.text  # the current value, to check against
    turn.refresh_from_db()
    assert turn.score == 20


def test_an_invalid_correction_changes_nothing(playing):
    turn = services.turn_record(entry=playing[0], number=1, counts=(5, 9, 5, 7))
    with pytest.raises(Invalid):
        services.turn_correct(turn=turn, revision=1, counts=(10, 10, 10, 10))
    turn.refresh_from_db()
    assert (turn.score, turn.revision) == (116, 1)


def test_it_deletes_a_game_with_the_current_revision_only(playing):
    turn = services.turn_record(entry=playing[0], number=1, counts=(5, 9, 5, 7))
    with pytest.raises(Stale):
        services.turn_delete(turn=turn, revision=7)
    services.turn_delete(turn=turn, revision=1)
    assert not Turn.objects.exists()
    assert Turn.history.filter(history_type="-").count() == 1


def test_an_undo_is_refused_when_the_game_changed_again(played, organiser):
    turn = Turn.objects.get(entry=played[0], number=1)
    services.turn_correct(turn=turn, revision=1, counts=(0, 0, 0, 30), entered_by=organiser)
    services.turn_correct(turn=turn, revision=2, counts=(0, 0, 0, 29), entered_by=organiser)
    first = Correction.objects.order_by("pk").first()
    with pytest.raises(Stale):
        correction_undo(correction=first, by=organiser)
    assert Turn.objects.get(pk=turn.pk).counts == (0, 0, 0, 29)
    assert not Correction.objects.filter(source="undo").exists()


def test_undo_is_refused_once_the_game_slot_is_taken_again(played, organiser):
    turn = Turn.objects.get(entry=played[2], number=1)
    services.turn_delete(turn=turn, revision=1, by=organiser)
    services.turn_record(entry=played[2], number=1, counts=(0, 0, 0, 1))
    with pytest.raises(Stale):
        correction_undo(correction=Correction.objects.get(), by=organiser)


def test_the_service_refuses_an_unconfirmed_first_place_change(final):
    _, anna, _ = final
    turn = Turn.objects.get(entry=anna, number=2)
    with pytest.raises(Refused) as refused:
        services.turn_correct(turn=turn, revision=1, counts=(0, 0, 0, 0))
    assert refused.value.code == "confirm_first_place"


def test_no_warning_while_games_are_still_to_play(event):
    competition = SjoelenFactory(event=event, settings={"games": 3, "boards": 2})
    anna = PlayingEntryFactory(competition=competition, player__name="Anna")
    PlayingEntryFactory(competition=competition, player__name="Bert")
    turn = services.turn_record(entry=anna, number=1, counts=(7, 7, 7, 9))
    services.turn_correct(turn=turn, revision=1, counts=(0, 0, 0, 0))  # no confirmation asked
    assert Turn.objects.get(pk=turn.pk).score == 0


def test_a_correction_that_breaks_the_tie_ends_the_play_off(client, tied, organiser):
    competition, a, b, c = tied
    services.turn_record(entry=c, number=2, counts=(1, 1, 1, 1))
    services.playoff_record(entry=a, counts=(0, 0, 0, 30))
    turn = Turn.objects.get(entry=b, number=1)
    services.turn_correct(
        turn=turn, revision=turn.revision, counts=(7, 7, 7, 8), entered_by=organiser, confirmed=True
    )
    shown = standings_with_options(competition)
    assert shown.playoff is None
    assert [(r.name, r.place) for r in shown.standings.rows][:2] == [
        ("Õie Sööt", 1),
        ("Jüri Tamm", 2),
    ]
    assert "title-playoff" not in client.get(url("standings", competition)).content.decode()


def test_admin_keeps_the_rows_while_they_add_up_and_old_trails_undo(playing, organiser):
    entry = playing[0]
    turn = services.turn_record(entry=entry, number=1, counts=(5, 9, 5, 7), sub_turns=SUB_TURN_ROWS)
    saved = services.turn_admin_save(
        turn=turn, revision=turn.revision, entry=entry, number=2, board=None, counts=(5, 9, 5, 7),
        by=organiser, confirmed=True,
    )  # fmt: skip
    assert saved.sub_turns == [list(r) for r in SUB_TURN_ROWS]
    saved = services.turn_admin_save(
        turn=saved, revision=saved.revision, entry=entry, number=2, board=None,
        counts=(5, 9, 5, 8), by=organiser, confirmed=True,
    )  # fmt: skip
    assert saved.sub_turns is None
    # A trail written before sub-turns were kept has no "sub_turns": the undo still works.
    last = Correction.objects.order_by("-pk").first()
    del last.payload["before"]["sub_turns"]
    last.save()
    services.undo_correction(last, organiser)
    saved.refresh_from_db()
    assert (saved.counts, saved.sub_turns) == ((5, 9, 5, 7), None)
