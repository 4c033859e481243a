"""Private data never leaves through the read API: every answer reachable from the
API's index, on the demo (``manage.py load_demo``: one event per format, the series, the event
taking sign-ups), is searched for e-mail addresses, tokens (sign-up links, private round-robin
links, table and board codes, calendar and stop links) and the full names of people who chose to
be shown by first name and initial."""

from __future__ import annotations

import json
import re
from collections import deque

import pytest

from events.calendar.links import player_token
from events.models import Competition, Entry, Game, Player
from events.outbox.stop_links import stop_token
from events.services.proposals import table_code
from events.signups.models import SignUp
from events.signups.services import privacy
from events.signups.services.mail import person_token
from roundrobin.models import PlayerToken
from shuffleboard.proposals import board_code

pytestmark = pytest.mark.django_db
EMAIL = re.compile(r"[\w.+-]+@[\w-]+(\.[\w-]+)+")


@pytest.fixture
def demo(demo_site, db, settings):
    settings.API_RATE_LIMIT = 0


def links_in(value) -> list[str]:
    if isinstance(value, str):
        return [value] if value.startswith("/api/v1/") else []
    if isinstance(value, dict):
        return [link for v in value.values() for link in links_in(v)]
    if isinstance(value, list):
        return [link for v in value for link in links_in(v)]
    return []


def walk(client) -> dict[str, str]:
    """Every API address reachable from the index: address -> body."""
    seen: dict[str, str] = {}
    queue = deque(["/api/v1/"])
    while queue and len(seen) < 3000:
        path = queue.popleft()
        if path in seen:
            continue
        response = client.get(path)
        assert response.status_code == 200, (path, response.status_code)
        body = response.content.decode()
        seen[path] = body
        if response["Content-Type"] == "application/json":
            queue.extend(link for link in links_in(json.loads(body)) if link not in seen)
    return seen


def test_no_private_data_in_any_answer(demo, client):
    # Everyone has an e-mail address; some people chose "first name and initial".
    for player in Player.objects.all():
        Player.objects.filter(pk=player.pk).update(email=f"person{player.pk}@example.org")
    hidden = []
    for competition in Competition.objects.all():
        for entry in Entry.objects.filter(competition=competition).select_related("player")[:3]:
            if len(entry.player.name.split()) > 1:
                privacy.public_name_set(entry.player.email or "", "short")
                hidden.append(entry.player.name)
    assert len(hidden) >= 6

    answers = walk(client)
    paths = set(answers)
    # every format's competition, its standings, results and sessions, the series, ratings
    for competition in Competition.objects.select_related("event"):
        base = f"/api/v1/events/{competition.event.slug}/competitions/{competition.slug}"
        assert {base, f"{base}/standings", f"{base}/results", f"{base}/entries"} <= paths, base
    assert any(p.startswith("/api/v1/series/") for p in paths)
    assert any(p.startswith("/api/v1/ratings/") for p in paths)
    assert any("/sessions/" in p for p in paths)

    secrets = {
        *(t.token for t in PlayerToken.objects.all()),
        *(table_code(pk) for pk in Game.objects.values_list("pk", flat=True)),
        *(
            board_code(c.pk, board)
            for c in Competition.objects.filter(format="shuffleboard")
            for board in range(1, 9)
        ),
        *(person_token(s.email) for s in SignUp.objects.all()),
        *(player_token(pk) for pk in Player.objects.values_list("pk", flat=True)),
        *(
            stop_token(e.player_id, e.competition.event_id)
            for e in Entry.objects.select_related("competition")
        ),
    }
    assert len(secrets) > 50
    everything = "\n".join(answers.values())
    assert not EMAIL.search(everything), EMAIL.search(everything)
    for name in hidden:
        assert name not in everything, name
    words = set(re.findall(r"[A-Za-z0-9_\-:.]+", everything))
    leaked = [
        secret for secret in secrets if secret in words or len(secret) > 12 and secret in everything
    ]
    assert not leaked, leaked
    # and the hidden names are there, shortened as on the public pages
    assert any(f"{name.split()[0]} {name.split()[-1][0]}." in everything for name in hidden)
