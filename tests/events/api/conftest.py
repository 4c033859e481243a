"""The read API's tests: every test starts with no address remembered by the rate limit."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from importlib import import_module

import pytest

from events.api import limits
from events.formats import all_formats, get_format
from tests.factories import CompetitionFactory, EntryFactory


@pytest.fixture(autouse=True)
def fresh_rate_limit() -> Iterator[None]:
    limits.forget()
    yield
    limits.forget()


def api_path(competition, tail: str = "") -> str:
    base = f"/api/v1/events/{competition.event.slug}/competitions/{competition.slug}"
    return f"{base}/{tail}" if tail else base


def registered_world(event, players: int, key: str):
    """A competition of format ``key`` with ``players`` entries and nothing played."""
    game_format = get_format(key)
    competition = CompetitionFactory(
        event=event,
        name=str(game_format.label),
        slug=game_format.url_segment,
        format=key,
        settings=game_format.default_settings(),
    )
    EntryFactory.create_batch(players, competition=competition)
    return competition


def world_of(key: str):
    """How to build a competition of format ``key`` for the API: its tests' own ``api_world``
    (tests/<key>/conftest.py, a competition in play), else entries that have played nothing."""
    try:
        module = import_module(f"tests.{key}.conftest")
    except ModuleNotFoundError as exc:
        if exc.name not in (f"tests.{key}", f"tests.{key}.conftest"):
            raise  # a conftest that is there but broken must not pass for a missing one
        module = None
    return getattr(module, "api_world", None) or partial(registered_world, key=key)


# Every registered format's: ``WORLDS[key](event, players)``.
WORLDS = {game_format.key: world_of(game_format.key) for game_format in all_formats()}
