"""A Blokus tournament tells the event's webhooks: a round drawn ("round.seated",
also the final and a reserve swapped in), a result entered or corrected ("result.confirmed"),
and every committed change of the standings ("standings.changed")."""

from __future__ import annotations

import json
import random

import pytest

from blokus import services
from events.outbox import webhooks
from events.outbox.models import OutboxMessage
from tests.support.blokus import hands_for, record

ALL = ["result.confirmed", "round.seated", "standings.changed", "registration.changed"]


def subscribe(event, topics=ALL, url="http://127.0.0.1:9/hook"):
    return webhooks.webhook_create(event=event, url=url, topics=topics)


def sent(topic: str) -> list[dict]:
    return [
        json.loads(m.body)
        for m in OutboxMessage.objects.filter(channel="webhook", subject=topic).order_by("pk")
    ]


@pytest.mark.django_db
def test_a_drawn_round_and_its_results_are_told(
    competition, seated_session, django_capture_on_commit_callbacks
):
    subscribe(competition.event)
    round_ = services.round_draw(session=seated_session, seed=7)
    (seated,) = sent("round.seated")
    assert seated["data"]["round"] == round_.pk and seated["data"]["number"] == 1
    assert seated["data"]["competition"] == competition.slug
    assert seated["data"]["api"]["standings"].endswith(
        f"/api/v1/events/{competition.event.slug}/competitions/{competition.slug}/standings"
    )
    game = round_.games.order_by("number").first()
    services.round_start_clock(round=round_)
    with django_capture_on_commit_callbacks(execute=True):
        services.game_result_record(
            game=game, revision=game.revision, hands=hands_for(game, random.Random(1))
        )
    (result,) = sent("result.confirmed")
    assert result["data"]["game"] == game.pk and result["data"]["correction"] is False
    assert [s["data"]["version"] for s in sent("standings.changed")] == [
        competition.__class__.objects.get(pk=competition.pk).version
    ]
    record(game, [0, 1, 2, 3], confirm_later_round=True)  # a correction
    assert [r["data"]["correction"] for r in sent("result.confirmed")] == [False, True]


@pytest.mark.django_db
def test_topics_filter_what_is_queued(competition, seated_session):
    subscribe(competition.event, topics=["result.confirmed"])
    round_ = services.round_draw(session=seated_session, seed=7)
    assert sent("round.seated") == []
    game = round_.games.order_by("number").first()
    services.round_start_clock(round=round_)
    services.game_result_record(
        game=game, revision=game.revision, hands=hands_for(game, random.Random(1))
    )
    assert len(sent("result.confirmed")) == 1
