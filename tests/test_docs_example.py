"""The example of docs/examples/follow_competition.py works against the real site: it
checks signatures as the site makes them, and a standings change reaches it as a
signed webhook post whose link it follows through the read API, with 304s after that."""

from __future__ import annotations

import importlib.util
import queue
import threading
import time
from pathlib import Path

import pytest

from events.outbox import queue as outbox, webhooks
from events.outbox.channels.webhook import signature
from events.services import competition_touch
from tests.support.factories import EventFactory
from tests.support.shuffleboard import api_world as sjoelen_world

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location(
    "follow_competition", ROOT / "docs" / "examples" / "follow_competition.py"
)
assert _spec is not None and _spec.loader is not None
follow = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(follow)


def signed(secret: str, body: bytes, at: int) -> dict[str, str]:
    return {
        "webhook-id": "msg_1",
        "webhook-timestamp": str(at),
        "webhook-signature": "v1,bm90IGl0 " + signature(secret, "msg_1", at, body),
    }


def test_the_example_checks_signatures_as_the_site_makes_them():
    secret, body, now = webhooks.new_secret(), b'{"type":"test","data":{}}', int(time.time())
    headers = signed(secret, body, now)
    assert follow.verify(secret, headers, body) == {"type": "test", "data": {}}
    assert follow.verify(secret, headers, body + b" ") is None  # altered on the way
    assert follow.verify(webhooks.new_secret(), headers, body) is None  # another webhook's
    assert follow.verify(secret, headers, body, now=now + follow.TOLERANCE + 1) is None  # replay
    assert follow.verify(secret, {**headers, "webhook-signature": "v1,"}, body) is None
    assert follow.verify(secret, {"webhook-id": "msg_1"}, body) is None
    assert follow.verify("whsec_not base64!", headers, body) is None


def test_the_example_follows_a_competition_by_webhook_and_api(
    transactional_db, live_server, settings
):
    settings.SITE_URL = live_server.url  # the links a post carries lead to this server
    competition = sjoelen_world(EventFactory(name="Club night", slug="club-night"), 3)
    told: queue.Queue[dict] = queue.Queue()
    receiver = follow.Receiver(secret="", on_message=told.put)
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    try:
        hook = webhooks.webhook_create(
            event=competition.event,
            url=f"http://127.0.0.1:{receiver.server_address[1]}/",
            topics=["standings.changed"],
        )
        receiver.secret = hook.secret
        competition_touch(competition)  # committed: "standings changed" is queued
        outbox.drain()  # what the delivery loop does every 30 s
        message = told.get(timeout=20)
    finally:
        receiver.shutdown()
        receiver.server_close()
    assert message["type"] == "standings.changed"
    assert message["data"]["competition"] == competition.slug
    standings = follow.Standings(message["data"]["api"]["standings"])
    assert standings.refresh() is True  # 200: the first look
    lines: list[str] = []
    standings.show(lines.append)
    assert [line.split(maxsplit=1)[1] for line in lines] == ["Sjoel 02", "Sjoel 01", "Sjoel 00"]
    assert standings.refresh() is False  # 304: nothing changed since
    competition_touch(competition)
    assert standings.refresh() is True  # a new version: a new ETag, the table again


@pytest.mark.parametrize("command", [["--help"], ["poll", "--help"], ["receive", "--help"]])
def test_the_example_explains_itself(command, capsys):
    with pytest.raises(SystemExit) as done:
        follow.main(command)
    assert done.value.code == 0
    assert "usage:" in capsys.readouterr().out
