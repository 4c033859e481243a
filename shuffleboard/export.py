"""What sjoelen adds to an event export (``events.exchange.document``), and its standings and games
as
sheets for the CSV and XLSX downloads.

A game's sub-turn rows (``Turn.sub_turns``, A-SJ-15) travel in the JSON export as a column of
the table like any other; a backup written before they were kept has no such key and imports
with none (totals only). The results sheet shows them as text, one group per sub-turn."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.utils.functional import lazy
from django.utils.translation import gettext as _, gettext_lazy

from events.exchange.document import Remap, Table
from events.exchange.sheets import Column, Sheet, sheet_of
from events.models import Competition
from shuffleboard.models import Turn
from shuffleboard.selectors import standings_for_competition

TABLES = (Table(Turn, "entry__competition__event"),)


def correction_payload(payload: dict[str, Any], remap: Remap) -> dict[str, Any]:
    """The ids in a sjoelen correction's undo data: the game (``Turn``) it changed, and the
    entry of the game's states before and after."""
    mapped = dict(payload)
    if mapped.get("turn") is not None:
        mapped["turn"] = remap(Turn._meta.label_lower, mapped["turn"])
    for side in ("before", "after"):
        state = mapped.get(side)
        if isinstance(state, dict) and state.get("entry") is not None:
            mapped[side] = {**state, "entry": remap("events.entry", state["entry"])}
    return mapped


def _average(row: Any) -> float | None:
    return None if row.average is None else round(float(row.average), 2)


def _standing_columns(name: Callable[[Any], str]) -> list[Column[Any]]:
    return [
        Column(gettext_lazy("Place"), lambda row: row.place),
        Column(gettext_lazy("Shared"), lambda row: row.shared),
        Column(gettext_lazy("Player"), name),
        Column(gettext_lazy("Club"), lambda row: row.club),
        Column(gettext_lazy("Total"), lambda row: row.total),
        Column(gettext_lazy("Games"), lambda row: row.games_played),
        Column(gettext_lazy("Average"), _average),
        Column(gettext_lazy("Best game"), lambda row: row.best),
        Column(gettext_lazy("Withdrawn"), lambda row: row.withdrawn),
    ]


STANDING_COLUMNS = _standing_columns(lambda row: row.name)
# The same, each player named as they chose to be shown in public (Player.public_name).
PUBLIC_STANDING_COLUMNS = _standing_columns(lambda row: row.public_name)


def standings(competition: Competition, *, public: bool = False) -> Sheet:
    """The standings as the public page ranks them (two queries). The players' full names, as
    the organisers' downloads give them; ``public`` (a page or file anyone may read, such as
    the results sheet) gives each the name they chose to be shown in public."""
    columns = PUBLIC_STANDING_COLUMNS if public else STANDING_COLUMNS
    return sheet_of(_("Standings"), columns, standings_for_competition(competition).rows)


_with_value = lazy(lambda text, value: str(text) % {"value": value}, str)


def _gate(label: Any, value: int, pick: Callable[[Turn], Sequence[int]]) -> Column[Turn]:
    return Column(_with_value(label, value), lambda turn: pick(turn)[value - 1])


def _sub_turns(turn: Turn) -> str:
    return " | ".join(" ".join(str(count) for count in counts) for _, counts in turn.sub_turn_rows)


GATE = gettext_lazy("%(value)s-point gate")
BONUS_GATE = gettext_lazy("Bonus discs, %(value)s-point gate")


def _result_columns(name: Callable[[Turn], str]) -> list[Column[Turn]]:
    return [
        Column(gettext_lazy("Player"), name),
        Column(gettext_lazy("Club"), lambda turn: turn.entry.player.club),
        Column(gettext_lazy("Game"), lambda turn: turn.number),
        Column(gettext_lazy("Board"), lambda turn: turn.board),
        *(_gate(GATE, value, lambda turn: turn.counts) for value in (1, 2, 3, 4)),
        *(_gate(BONUS_GATE, value, lambda turn: turn.bonus_counts) for value in (1, 2, 3, 4)),
        Column(gettext_lazy("148 reached after sub-turn"), lambda turn: turn.max_after),
        Column(gettext_lazy("Score"), lambda turn: turn.score),
        Column(gettext_lazy("Sub-turns (gates 2, 3, 4, 1)"), _sub_turns),
    ]


RESULT_COLUMNS = _result_columns(lambda turn: turn.entry.player.name)
PUBLIC_RESULT_COLUMNS = _result_columns(lambda turn: turn.entry.player.public_name)


def results(competition: Competition, *, public: bool = False) -> Sheet:
    """Every game of every player with its gate counts (one query); by full name, sorted by it
    (the organisers' downloads), or with ``public`` each player by their public name."""
    turns = (
        Turn.objects.filter(entry__competition=competition)
        .select_related("entry__player")
        .order_by("entry__player__name", "entry_id", "number")
    )
    return sheet_of(_("Results"), PUBLIC_RESULT_COLUMNS if public else RESULT_COLUMNS, turns)
