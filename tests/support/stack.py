"""The world of the tests that run the production stack on this test's PostgreSQL and Redis
(tests/test_two_servers.py, tests/test_shared_cache.py): an organiser with a password an HTTP
login can use, an event of today, a started round robin, and the servers' environment on a
Redis key prefix of the test's own, emptied when the test ends."""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.contrib.auth.models import User
from django.db import connection
from django.utils import timezone
from redis import Redis

from events import services as event_services
from events.models import Competition, Entry, Event, Player, fold, person_key
from roundrobin import services
from tests.support.servers import collect_static, production_env

REDIS_URL = "redis://127.0.0.1:6379/0"


def database_url() -> str:
    """The test database's address, for the servers' DATABASE_URL."""
    db = connection.settings_dict
    user = db.get("USER") or "postgres"
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    host = db.get("HOST") or "127.0.0.1"
    port = db.get("PORT") or 5432
    return f"postgres://{user}{password}@{host}:{port}/{db['NAME']}"


def organised_event(username: str, password: str, name: str, **fields: str) -> Event:
    """An event of today, organised by a new user who logs in with ``password``."""
    organiser = User.objects.create(
        username=username,
        password=PBKDF2PasswordHasher().encode(password, secrets.token_hex(8)),
    )
    today = timezone.now().date()
    return event_services.event_create(
        name=name, starts_on=today, ends_on=today, organiser=organiser, **fields
    )


def roundrobin_league(event: Event, name: str, players: int, *, began: dt.datetime) -> Competition:
    """A round robin of ``players`` checked-in players, started at ``began``."""
    competition = event_services.competition_create(event=event, name=name, format="roundrobin")
    rows = Player.objects.bulk_create(
        Player(
            host_id=event.host_id,
            name=f"{name} {i}",
            search_text=fold(f"{name} {i}"),
            person_key=person_key(f"{name} {i}", ""),
            rating=1500 + 10 * i,
        )
        for i in range(players)
    )
    Entry.objects.bulk_create(
        Entry(competition=competition, player=p, checked_in_at=began) for p in rows
    )
    services.competition_start(competition=competition, seed=1, now=began)
    competition.refresh_from_db()
    return competition


@contextmanager
def production_stack_env(name: str, var_dir: Path, **extra: str) -> Iterator[dict[str, str]]:
    """The servers' environment (``production_env`` and ``extra``), static files collected, on a
    Redis key prefix of its own whose keys are deleted at the end."""
    prefix = f"{name}-{secrets.token_hex(6)}"
    env = production_env(
        database_url=database_url(),
        redis_url=REDIS_URL,
        key_prefix=prefix,
        var_dir=str(var_dir),
    )
    env.update(extra)
    collect_static(env)
    try:
        yield env
    finally:
        redis = Redis.from_url(REDIS_URL)
        for key in redis.scan_iter(f"{prefix}:*"):
            redis.delete(key)
