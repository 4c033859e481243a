"""The ways a message leaves the outbox (``events/outbox/channels/``): one small interface, as
healthchecks' ``Transport``, and one module per channel (``email``, ``push``, ``webhook``).

``events.outbox.queue.drain`` asks ``channel_for(message.channel)`` and knows no channel by
name: a channel delivers a message or raises, says which of its errors mean "never again"
(the message is cancelled, not retried) and what the desk shows of an error.
"""

from __future__ import annotations

from typing import Protocol

from events.outbox.channels.email import EmailChannel
from events.outbox.channels.push import PushChannel
from events.outbox.channels.webhook import WebhookChannel
from events.outbox.models import OutboxMessage


class Channel(Protocol):
    @property
    def name(self) -> str:
        """The ``OutboxMessage.Channel`` value of the messages it delivers."""
        ...

    @property
    def gone(self) -> tuple[type[Exception], ...]:
        """The errors that mean "never try again": the message is cancelled."""
        ...

    def deliver(self, message: OutboxMessage) -> None:
        """Hand one message over; raises what the other side answered when it refuses."""
        ...

    def describe_error(self, exc: Exception) -> str:
        """What the desk shows of a failed delivery (kept in ``OutboxMessage.last_error``)."""
        ...


CHANNELS: dict[str, Channel] = {
    channel.name: channel for channel in (EmailChannel(), PushChannel(), WebhookChannel())
}


def channel_for(name: str) -> Channel:
    """The channel of ``OutboxMessage.channel`` ``name``; ``LookupError`` for one none knows."""
    try:
        return CHANNELS[name]
    except KeyError as exc:
        raise LookupError(f"no outbox channel {name!r}") from exc
