"""A sjoelen player hears "Next: game n at board b", in their language, once per
next game and board; a correction that moves it tells the new one and cancels the old."""

from __future__ import annotations

import json

from events.outbox import webhooks
from events.outbox.models import OutboxMessage, OutboxStatus
from shuffleboard import selectors, services
from shuffleboard.services import notices
from tests.support.factories import PlayerFactory
from tests.support.shuffleboard import PlayingEntryFactory, listen, subjects

COUNTS = (5, 9, 5, 7)


def sent(topic: str) -> list[dict]:
    return [
        json.loads(m.body)
        for m in OutboxMessage.objects.filter(channel="webhook", subject=topic).order_by("pk")
    ]


def test_each_entered_game_tells_the_next_board_in_the_players_language(
    playing, django_assert_max_num_queries
):
    first, second = playing[0], playing[1]
    listen(second, "nl")
    # The rota: player i (from 0) plays game g at board (i + g - 1) mod 4 + 1.
    assert selectors.next_game(second) == (1, 2)
    services.turn_record(entry=first, number=1, counts=COUNTS, board=1)
    assert not OutboxMessage.objects.exists()  # the first player chose nothing
    services.turn_record(entry=second, number=1, counts=COUNTS, board=2)
    ((text, status),) = subjects(second)
    assert "Volgende: partij 2 aan sjoelbak 3" in text, text
    assert status == OutboxStatus.PENDING
    # Asked again with nothing changed: nothing new (the key holds game and board).
    with django_assert_max_num_queries(10):  # 2, 3 for the player, 2 choices, 3 the insert
        assert notices.next_told([second.pk]) == 0
    # Game 2 entered as game 3 by mistake: the next is still game 2, nothing new.
    wrong = services.turn_record(entry=second, number=3, counts=COUNTS, board=4)
    assert len(subjects(second)) == 1
    services.turn_record(entry=second, number=2, counts=COUNTS, board=3)
    assert [s for _t, s in subjects(second)] == [OutboxStatus.CANCELLED, OutboxStatus.PENDING]
    assert "partij 4 aan sjoelbak 1" in subjects(second)[-1][0]
    # The wrong game 3 removed: game 3 at board 4 is next again, the game-4 message ends.
    services.turn_delete(turn=wrong, revision=wrong.revision)
    (
        *_old,
        (last_text, last_status),
    ) = subjects(second)
    assert "partij 3 aan sjoelbak 4" in last_text and last_status == OutboxStatus.PENDING
    assert subjects(second)[-2][1] == OutboxStatus.CANCELLED


def test_every_game_in_ends_the_subject(sjoelen):
    sjoelen.settings = {"games": 2, "boards": 4, "bonus_disc": False}
    sjoelen.save()
    entry = PlayingEntryFactory(competition=sjoelen, player=PlayerFactory(name="Mari Kask"))
    listen(entry, "sv")
    services.turn_record(entry=entry, number=1, counts=COUNTS, board=1)
    assert "Nästa" in subjects(entry)[0][0], subjects(entry)
    services.turn_record(entry=entry, number=2, counts=COUNTS, board=2)
    assert selectors.next_game(entry) is None
    assert [s for _t, s in subjects(entry)] == [OutboxStatus.CANCELLED]


def test_a_game_entered_tells_the_result_and_the_next_board(playing):
    first = playing[0]
    event = first.competition.event
    webhooks.webhook_create(
        event=event,
        url="http://127.0.0.1:9/hook",
        topics=["result.confirmed", "round.seated"],
    )
    turn = services.turn_record(entry=first, number=1, counts=COUNTS, board=1)
    (result,) = sent("result.confirmed")
    assert result["data"] | {"api": None} == {
        "event": event.slug,
        "competition": first.competition.slug,
        "api": None,
        "entry": first.pk,
        "game": 1,
        "board": 1,
        "correction": False,
    }
    (board,) = sent("round.seated")
    assert board["data"]["entry"] == first.pk and board["data"]["game"] == 2
    services.turn_correct(turn=turn, revision=turn.revision, counts=(7, 7, 7, 9))
    assert [r["data"]["correction"] for r in sent("result.confirmed")] == [False, True]


def test_without_a_webhook_nothing_is_queued(playing):
    services.turn_record(entry=playing[0], number=1, counts=COUNTS, board=1)
    assert not OutboxMessage.objects.filter(channel="webhook").exists()
