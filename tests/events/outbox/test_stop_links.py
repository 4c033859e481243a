"""The one-tap stop links (events/outbox/stop_links.py): what a token holds reads back, an
altered, cut, foreign or oversized one reads as nothing, an old one is told apart, and a push
carries the stop that fits its subscription."""

from __future__ import annotations

import datetime as dt
from urllib.parse import urlsplit

import pytest
import time_machine
from django.core import signing
from django.urls import resolve

from events.outbox import stop_links
from events.outbox.models import OutboxMessage, PushSubscription
from events.outbox.stop_links import (
    MAX_AGE,
    StopLinkExpired,
    endpoint_mark,
    public_stop_token,
    public_stop_url,
    push_stop,
    read_public_stop_token,
    read_stop_token,
    stop_token,
)
from tests.support.factories import EventFactory, PlayerFactory


def test_a_stop_token_reads_back_as_its_player_and_event():
    assert read_stop_token(stop_token(12, 345)) == (12, 345)


def test_an_altered_cut_foreign_or_oversized_stop_token_reads_as_nothing():
    token = stop_token(12, 345)
    altered = token[:-1] + ("A" if token[-1] != "A" else "B")
    foreign = signing.TimestampSigner(salt="another.salt").sign_object([12, 345])
    assert read_stop_token(altered) is None
    assert read_stop_token(token[: len(token) // 2]) is None
    assert read_stop_token(foreign) is None
    assert read_stop_token("x" * (stop_links.MAX_TOKEN + 1)) is None
    assert read_stop_token(None) is None  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [[12], [12, 345, 6], [0, 345], [12, -1], ["12", 345], "12:345"])
def test_a_signed_token_of_the_wrong_shape_reads_as_nothing(value):
    token = signing.TimestampSigner(salt=stop_links.SALT).sign_object(value)
    assert read_stop_token(token) is None


def test_a_stop_token_older_than_its_age_is_told_apart_from_a_bad_one():
    start = dt.datetime(2026, 1, 1, 12, 0, tzinfo=dt.UTC)
    with time_machine.travel(start, tick=False):
        token = stop_token(1, 2)
    with time_machine.travel(start + MAX_AGE - dt.timedelta(minutes=1), tick=False):
        assert read_stop_token(token) == (1, 2)
    with time_machine.travel(start + MAX_AGE + dt.timedelta(minutes=1), tick=False):
        with pytest.raises(StopLinkExpired):
            read_stop_token(token)


def test_the_public_and_the_players_stop_tokens_do_not_open_each_other():
    public = public_stop_token(7, "https://push.example/abc")
    assert read_public_stop_token(public) == (7, endpoint_mark("https://push.example/abc"))
    assert read_stop_token(public) is None
    assert read_public_stop_token(stop_token(7, 8)) is None


def test_the_endpoint_mark_is_short_and_tells_endpoints_apart():
    mark = endpoint_mark("https://push.example/abc")
    assert len(mark) == 16 and mark == endpoint_mark("https://push.example/abc")
    assert mark != endpoint_mark("https://push.example/abd")


@pytest.mark.django_db
def test_a_push_carries_the_stop_of_its_subscription_or_of_the_player(settings):
    settings.SITE_URL = "https://events.example.org"
    event = EventFactory()
    player = PlayerFactory()
    public = PushSubscription.objects.create(
        event=event,
        player=player,
        endpoint="https://push.example/public",
        public=True,
        p256dh="k",
        auth="a",
    )
    own = PushSubscription.objects.create(
        player=player,
        endpoint="https://push.example/own",
        public=False,
        p256dh="k",
        auth="a",
    )

    def message(subscription, **extra):
        return OutboxMessage(
            key=f"k{subscription and subscription.pk}",
            to="",
            subject="s",
            body="b",
            subscription=subscription,
            **extra,
        )

    from_public = push_stop(message(public, player=player, event=event))
    assert from_public["stop"].startswith("https://events.example.org/")
    assert from_public["stop"] == public_stop_url(public.pk, public.endpoint)
    token = resolve(urlsplit(from_public["stop"]).path).kwargs["token"]
    assert read_public_stop_token(token) == (public.pk, endpoint_mark(public.endpoint))

    from_own = push_stop(message(own, player=player, event=event, language="sv"))
    token = resolve(urlsplit(from_own["stop"]).path).kwargs["token"]
    assert read_stop_token(token) == (player.pk, event.pk)
    assert from_own["stop_label"] == "Stoppa"

    assert push_stop(message(None)) == {}
