"""The read API's addresses, and a competition of every format to read."""

from __future__ import annotations

from functools import partial
from importlib import import_module

from events.formats import all_formats, get_format
from tests.support.factories import CompetitionFactory, EntryFactory


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
    (tests/support/<key>.py, a competition in play), else entries that have played nothing."""
    try:
        module = import_module(f"tests.support.{key}")
    except ModuleNotFoundError as exc:
        if exc.name != f"tests.support.{key}":
            raise  # a module that is there but broken must not pass for a missing one
        module = None
    return getattr(module, "api_world", None) or partial(registered_world, key=key)


# Every registered format's: ``WORLDS[key](event, players)``.
WORLDS = {game_format.key: world_of(game_format.key) for game_format in all_formats()}


def get(client, path: str, **headers):
    """A GET of the read API with these headers (``If_None_Match=…``, ``Accept_Encoding=…``)."""
    return client.get(path, headers=headers)
