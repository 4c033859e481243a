"""The channels' one interface (events/outbox/channels/__init__.py): every kind of message has
exactly one channel, found by its name, and a name nobody knows is refused."""

from __future__ import annotations

import pytest

from events.outbox.channels import CHANNELS, channel_for
from events.outbox.channels.push import PushGone
from events.outbox.channels.webhook import WebhookGone
from events.outbox.models import OutboxMessage


def test_every_kind_of_message_has_its_channel():
    assert set(CHANNELS) == set(OutboxMessage.Channel.values)
    for name in OutboxMessage.Channel.values:
        channel = channel_for(name)
        assert channel.name == name
        assert all(issubclass(gone, Exception) for gone in channel.gone)


def test_what_means_never_again():
    assert channel_for(OutboxMessage.Channel.EMAIL).gone == ()
    assert channel_for(OutboxMessage.Channel.PUSH).gone == (PushGone,)
    assert channel_for(OutboxMessage.Channel.WEBHOOK).gone == (WebhookGone,)


def test_what_the_desk_shows_of_an_error():
    error = OSError("connection refused")
    assert channel_for("email").describe_error(error) == "OSError: connection refused"
    assert channel_for("webhook").describe_error(error) == "OSError: connection refused"
    assert channel_for("push").describe_error(error) == "OSError"  # never the address


def test_an_unknown_channel_is_refused():
    with pytest.raises(LookupError):
        channel_for("carrier-pigeon")
