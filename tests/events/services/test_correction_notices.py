"""Any format: a correction that changed a player's result tells them, once per
correction, in their language, through the one path every correction takes
(``events.services.correction_record``); an undo cancels what was not yet sent."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from events.models import Entry, Game
from events.outbox import notify
from events.outbox.models import OutboxMessage, OutboxStatus
from events.services import correction_undo
from shuffleboard import services as sj_services
from tests.support.blokus import eight_played, record
from tests.support.shuffleboard import four_playing, sjoelen_in


def listen(player, language):
    player.language, player.email = language, f"{player.pk}@example.org"
    player.save()
    notify.preference_set(
        player=player, event=player.entries.first().competition.event, email=True, push=False
    )


def told():
    return OutboxMessage.objects.filter(key__startswith="correction:").order_by("pk")


def test_a_corrected_sjoelen_game_tells_its_player_and_the_undo_cancels_it(event):
    entry = four_playing(sjoelen_in(event))[0]
    listen(entry.player, "et")
    turn = sj_services.turn_record(entry=entry, number=1, counts=(5, 9, 5, 7), board=1)
    assert not told().exists()  # a first result is no correction
    turn = sj_services.turn_correct(turn=turn, revision=turn.revision, counts=(6, 9, 5, 7))
    (message,) = told()
    assert message.player_id == entry.player_id and message.language == "et"
    assert "116" in message.subject + message.body and "117" in message.body, message.body
    assert "parandus" in message.subject.lower(), message.subject
    # Undone before it went out: cancelled; the undo is a correction of its own, told once.
    user = get_user_model().objects.create_user("desk", password="pw-for-tests-only")
    correction = entry.corrections.get()
    correction_undo(correction=correction, by=user)
    first, undo = told()
    assert first.status == OutboxStatus.CANCELLED and undo.status == OutboxStatus.PENDING
    assert "117" in undo.body


def test_a_corrected_blokus_table_tells_each_player_whose_result_moved(event):
    competition, _session, a, _b = eight_played(event)
    players = [e.player for e in Entry.objects.filter(pk__in=a).select_related("player")]
    for player in players:
        listen(player, "nl")
    game = Game.objects.get(seats__entry_id=a[0], round__session__competition=competition)
    record(game, [3, 2, 1, 0])  # every place moves
    messages = list(told())
    assert {m.player_id for m in messages} == {p.pk for p in players}
    assert len(messages) == 4 and all(m.language == "nl" for m in messages)
    assert len({m.key for m in messages}) == 4
    # Recorded again as it is: no correction, nothing new.
    record(game, [3, 2, 1, 0])
    assert told().count() == 4
