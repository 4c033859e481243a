"""What sjoelen adds to an event export (``events.exchange.document``), and its standings and games
as
sheets for the CSV and XLSX downloads.

A game's sub-turn rows (``Turn.sub_turns``, A-SJ-15) travel in the JSON export as a column of
the table like any other; a backup written before they were kept has no such key and imports
with none (totals only). The results sheet shows them as text, one group per sub-turn."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from events.exchange.document import Remap, Table
from events.exchange.sheets import Sheet
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


def standings(competition: Competition) -> Sheet:
    """The standings as the public page ranks them (two queries)."""
    table = standings_for_competition(competition)
    sheet = Sheet(
        title=_("Standings"),
        header=[
            _("Place"),
            _("Shared"),
            _("Player"),
            _("Club"),
            _("Total"),
            _("Games"),
            _("Average"),
            _("Best game"),
            _("Withdrawn"),
        ],
    )
    for row in table.rows:
        sheet.rows.append(
            [
                row.place,
                row.shared,
                row.name,
                row.club,
                row.total,
                row.games_played,
                None if row.average is None else round(float(row.average), 2),
                row.best,
                row.withdrawn,
            ]
        )
    return sheet


def results(competition: Competition) -> Sheet:
    """Every game of every player with its gate counts (one query)."""
    turns = (
        Turn.objects.filter(entry__competition=competition)
        .select_related("entry__player")
        .order_by("entry__player__name", "entry_id", "number")
    )
    sheet = Sheet(
        title=_("Results"),
        header=[
            _("Player"),
            _("Club"),
            _("Game"),
            _("Board"),
            *(_("%(value)s-point gate") % {"value": value} for value in (1, 2, 3, 4)),
            *(_("Bonus discs, %(value)s-point gate") % {"value": value} for value in (1, 2, 3, 4)),
            _("148 reached after sub-turn"),
            _("Score"),
            _("Sub-turns (gates 2, 3, 4, 1)"),
        ],
    )
    for turn in turns:
        sheet.rows.append(
            [
                turn.entry.player.name,
                turn.entry.player.club,
                turn.number,
                turn.board,
                *turn.counts,
                *turn.bonus_counts,
                turn.max_after,
                turn.score,
                " | ".join(
                    " ".join(str(count) for count in counts) for _, counts in turn.sub_turn_rows
                ),
            ]
        )
    return sheet
