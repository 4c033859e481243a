"""The outbox's models (events/outbox/models.py): a webhook's topics and why it is off, shown
in the reader's language."""

from __future__ import annotations

from django.utils import translation

from events.outbox.models import RECEIVER_GONE, SWITCHED_OFF, Webhook, WebhookTopic


def test_a_webhooks_topics_are_those_switched_on_in_their_order():
    hook = Webhook(url="https://x.example/hook", on_result=True, on_standings=True)
    assert hook.topics == [WebhookTopic.RESULT, WebhookTopic.STANDINGS]
    assert hook.topic_labels() == ["result confirmed", "standings changed"]
    assert Webhook(url="https://x.example/hook").topics == []


def test_why_a_webhook_is_off_is_stored_in_english_and_shown_translated():
    assert Webhook(disabled_reason=RECEIVER_GONE).disabled_label() == (
        "the receiver answered 410 Gone"
    )
    with translation.override("sv"):
        shown = Webhook(disabled_reason=SWITCHED_OFF).disabled_label()
    assert shown and shown != "switched off at the desk"
    # A reason written by an older version, with no label: shown as it was stored.
    assert Webhook(disabled_reason="old words").disabled_label() == "old words"
