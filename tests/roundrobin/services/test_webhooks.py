"""A round robin tells the event's webhooks: the tables drawn at the start
("round.seated"), every result however it came (the desk, a player's report, the clock:
"result.confirmed") and a withdrawal ("registration.changed")."""

from __future__ import annotations

import json

import pytest

from events.outbox import webhooks
from events.outbox.models import OutboxMessage
from roundrobin import services
from tests.support.roundrobin import START, play

pytestmark = pytest.mark.django_db


def sent(topic: str) -> list[dict]:
    return [
        json.loads(m.body)
        for m in OutboxMessage.objects.filter(channel="webhook", subject=topic).order_by("pk")
    ]


def test_the_start_results_and_a_withdrawal_are_told(league, sixteen):
    webhooks.webhook_create(
        event=league.event,
        url="http://127.0.0.1:9/hook",
        topics=["result.confirmed", "round.seated", "registration.changed"],
    )
    sessions = services.competition_start(competition=league, seed=2026, now=START)
    (seated,) = sent("round.seated")
    assert seated["data"]["sessions"] == [s.pk for s in sessions]
    league.refresh_from_db()
    game = play(league, sixteen[0], sixteen[3])
    (result,) = sent("result.confirmed")
    assert result["data"]["game"] == game.pk and result["data"]["ending"] == "played_out"
    services.entry_withdraw(entry=sixteen[5])
    changes = [m["data"]["change"] for m in sent("registration.changed")]
    assert changes == ["withdrawn"]
