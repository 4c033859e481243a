"""A sjoelen competition tells the event's webhooks: each game entered or corrected
("result.confirmed") and each player's next game and board ("round.seated")."""

from __future__ import annotations

import json

from events.outbox import webhooks
from events.outbox.models import OutboxMessage
from shuffleboard import services

COUNTS = (5, 9, 5, 7)


def sent(topic: str) -> list[dict]:
    return [
        json.loads(m.body)
        for m in OutboxMessage.objects.filter(channel="webhook", subject=topic).order_by("pk")
    ]


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
