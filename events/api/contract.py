"""What a format gives the read API (``events.api``): its public data as plain rows.

A format takes part by implementing :class:`ReadApi` in its hooks, whose ``read_api`` is a
:class:`ReadApiModule`, usually its ``read_api.py`` module. Every function answers with plain
JSON values (``dict``, ``list``, ``str``, ``int``, ``float``, ``bool``, ``None``; :func:`plain`
turns fractions, decimals and times into them), in a constant number of queries, reusing the
selectors of the format's public pages. A person appears by ``entry`` (the entry's id),
``name`` (``Player.public_name``, as the person chose to be shown) and ``club``, never by
e-mail, token or code.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from events.models import Competition
    from events.series.models import Series

Row = dict[str, Any]


class ReadApiModule(Protocol):
    def standings(self, competition: Competition) -> list[Row]:
        """The standings, best first, as the public page ranks them."""

    def results(self, competition: Competition) -> list[Row]:
        """Every result (a seat, a game, a turn), in a stable order."""

    def sessions(self, competition: Competition) -> list[Row]:
        """The sessions (blocks of play), each with "number"; [] when there are none."""

    def session(self, competition: Competition, number: int) -> Row | None:
        """One session with its rounds, tables and seats, or None."""

    @property
    def ratings(self) -> Callable[[Series | None], list[Row] | None] | None:
        """(series or None) -> the format's rating list (all players, or the players of one of
        its series; None for a series of another format); None when the format keeps no
        rating."""


@runtime_checkable
class ReadApi(Protocol):
    """A format whose public data the read API serves (the capability; ``registry.part``)."""

    @property
    def read_api(self) -> ReadApiModule: ...


def plain(value: Any) -> Any:
    """A value as JSON carries it: a whole fraction or decimal as int, else float; a time as
    ISO 8601 text; lists and mappings value by value."""
    if isinstance(value, bool) or value is None or isinstance(value, int | str | float):
        return value
    if isinstance(value, Fraction | Decimal):
        return int(value) if value == int(value) else float(value)
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return str(value)


def person(entry: Any) -> Row:
    """An entry as the read API names it: its id, the public name, the club."""
    return {"entry": entry.pk, "name": entry.player.public_name, "club": entry.player.club}
