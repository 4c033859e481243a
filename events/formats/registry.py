"""The registered formats, and which of them take part in a capability.

A capability (the series, the calendar, sign-up sessions, the read API, downloads, results
players enter) declares in its room's ``contract.py`` a runtime-checkable protocol of what it
asks a format; a format takes part by implementing it in its hooks class.
:func:`part` answers "this format's part in X, or None", :func:`formats_taking_part` "which formats
take part in X"; nothing else needs to know which formats exist.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from django.utils.functional import Promise

if TYPE_CHECKING:
    from events.formats.declaration import GameFormat

P = TypeVar("P")

_REGISTRY: dict[str, GameFormat] = {}


def register(game_format: GameFormat) -> GameFormat:
    """Add a format; called once from its app's ``AppConfig.ready()``."""
    existing = _REGISTRY.get(game_format.key)
    if existing is not None and existing != game_format:
        raise ValueError(f"Two formats registered under {game_format.key!r}.")
    _REGISTRY[game_format.key] = game_format
    return game_format


def all_formats() -> list[GameFormat]:
    """The registered formats, in the order of INSTALLED_APPS."""
    return list(_REGISTRY.values())


def get_format(key: str) -> GameFormat:
    """The format stored as ``key``; ``KeyError`` for an unknown one."""
    return _REGISTRY[key]


def is_registered(key: str) -> bool:
    return key in _REGISTRY


def format_choices() -> list[tuple[str, str | Promise]]:
    """Choices for ``Competition.format`` (a callable, so new formats need no migration)."""
    return [(f.key, f.label) for f in _REGISTRY.values()]


def part(game_format: GameFormat | str | None, capability: type[P]) -> P | None:
    """The format's part in ``capability`` (a protocol of a room's ``contract.py``): its hooks
    when they implement it, else None; None too for a key no longer installed."""
    if isinstance(game_format, str):
        game_format = _REGISTRY.get(game_format)
    if game_format is None:
        return None
    hooks = game_format.hooks
    return hooks if isinstance(hooks, capability) else None


def formats_taking_part(capability: type[P]) -> list[tuple[GameFormat, P]]:
    """Every format that takes part in ``capability``, with its part, in registration order."""
    found = []
    for game_format in _REGISTRY.values():
        hooks = game_format.hooks
        if isinstance(hooks, capability):
            found.append((game_format, hooks))
    return found
