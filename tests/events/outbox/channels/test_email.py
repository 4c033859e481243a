"""The e-mail channel (events/outbox/channels/email.py): one message through Django's mail
backend, the same Message-ID at every attempt, its language, and a one-click unsubscribe to a
player about an event."""

from __future__ import annotations

import pytest
from django.core import mail

from events.outbox.channels.email import EmailChannel, deliver_email, message_id
from events.outbox.models import OutboxMessage
from events.outbox.stop_links import stop_url
from tests.support.factories import EventFactory, PlayerFactory


def test_the_message_id_is_the_same_for_a_key_and_names_the_sites_host(settings):
    settings.SITE_URL = "https://events.example.org/"
    first = message_id("k1")
    assert first == message_id("k1") and first != message_id("k2")
    assert first.startswith("<") and first.endswith("@events.example.org>")


@pytest.mark.django_db
def test_a_mail_to_a_player_about_an_event_carries_a_one_click_stop(settings):
    settings.SITE_URL = "https://events.example.org"
    event, player = EventFactory(), PlayerFactory()
    message = OutboxMessage(
        key="n1",
        to="p@example.org",
        subject="Round 2",
        body="Seated.",
        language="sv",
        event=event,
        player=player,
    )
    deliver_email(message)
    [sent] = mail.outbox
    assert (sent.subject, sent.body, sent.to) == ("Round 2", "Seated.", ["p@example.org"])
    assert sent.extra_headers["Message-ID"] == message_id("n1")
    assert sent.extra_headers["Content-Language"] == "sv"
    assert sent.extra_headers["List-Unsubscribe"] == f"<{stop_url(player.pk, event.pk)}>"
    assert sent.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


def test_a_mail_to_no_player_has_no_unsubscribe_and_no_language_unless_set():
    deliver_email(OutboxMessage(key="n2", to="x@example.org", subject="S", body="B"))
    [sent] = mail.outbox
    assert "List-Unsubscribe" not in sent.extra_headers
    assert "Content-Language" not in sent.extra_headers


def test_the_channel_describes_an_error_by_its_kind_within_500_characters():
    channel = EmailChannel()
    assert channel.describe_error(ValueError("refused")) == "ValueError: refused"
    assert len(channel.describe_error(RuntimeError("x" * 900))) == 500
