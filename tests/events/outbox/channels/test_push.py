"""The push channel's checks and wrapping (events/outbox/channels/push.py): which endpoints the
site will post to, the Topic that replaces an undelivered message, what a push carries, and
what the desk is told of a failure."""

from __future__ import annotations

import pytest
import requests

from events.outbox.channels.push import (
    PushChannel,
    endpoint_usable,
    push_error,
    push_payload,
    push_topic,
)
from events.outbox.models import OutboxMessage


@pytest.fixture(autouse=True)
def only_the_push_services(settings):
    settings.PUSH_ANY_LOCAL_ENDPOINT = False
    settings.PUSH_SERVICE_HOSTS = ("fcm.googleapis.com", "push.services.mozilla.com")


@pytest.mark.parametrize(
    "endpoint",
    [
        "https://fcm.googleapis.com/fcm/send/abc",
        "https://updates.push.services.mozilla.com/wpush/v2/x",
        "https://FCM.googleapis.com/fcm/send/abc",
    ],
)
def test_an_https_address_at_a_push_service_is_usable(endpoint):
    assert endpoint_usable(endpoint)


@pytest.mark.parametrize(
    "endpoint",
    [
        "",
        None,
        "http://fcm.googleapis.com/fcm/send/abc",  # not https
        "https://evil.example/fcm.googleapis.com/",
        "https://fcm.googleapis.com.evil.example/x",
        "https://notfcm.googleapis.com.example/x",
        "https://user@fcm.googleapis.com/x",
        "https://fcm.googleapis.com:8443/x",
        "https://fcm.googleapis.com\\@evil.example/x",
        "https://fcm.googleapis.com/a b",
        "https://127.0.0.1/x",
        "https://fcm.googleapis.com/" + "x" * 2000,
    ],
)
def test_anything_else_is_refused(endpoint):
    assert not endpoint_usable(endpoint)


def test_the_topic_is_short_url_safe_and_the_same_for_one_subject():
    a = OutboxMessage(key="k1", subject_key="turn:7")
    b = OutboxMessage(key="k2", subject_key="turn:7")
    c = OutboxMessage(key="k3")
    assert push_topic(a) == push_topic(b) != push_topic(c)
    assert len(push_topic(a)) == 32
    assert set(push_topic(c)) <= set(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    )
    assert "turn" not in push_topic(a)  # the subject itself stays private


def test_the_payload_carries_the_message_and_tags_it_by_its_subject():
    message = OutboxMessage(
        key="k1", subject="Your turn", body="Table 3", url="/p/x/", language="et"
    )
    payload = push_payload(message)
    assert payload == {
        "title": "Your turn",
        "body": "Table 3",
        "url": "/p/x/",
        "lang": "et",
        "tag": "k1",  # no stop: the message is for no player
    }
    message.subject_key = "turn:7"
    assert push_payload(message)["tag"] == "turn:7"


def test_the_desk_is_told_the_kind_and_status_of_a_failure_never_the_address():
    answer = requests.Response()
    answer.status_code = 429
    answer.url = "https://fcm.googleapis.com/fcm/send/secret"
    failure = requests.HTTPError("429 for https://fcm.googleapis.com/fcm/send/secret")
    failure.response = answer
    assert push_error(failure) == "HTTPError (status 429)"
    assert push_error(TimeoutError("slow")) == "TimeoutError"
    assert PushChannel().describe_error(failure) == "HTTPError (status 429)"
