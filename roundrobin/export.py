"""What the round robin adds to an event export (``events.exchange.document``), and its tables and
games as sheets for the CSV and XLSX downloads.

Private links (``PlayerToken.token``) are secrets: never exported; an import makes new ones.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _, gettext_lazy

from events.exchange.document import Remap, Table, id_text, new_token
from events.exchange.sheets import Column, Sheet, sheet_of
from events.models import Competition
from roundrobin.models import (
    GameDetail,
    PlayerToken,
    RatingChange,
    RatingSnapshot,
    ResultReport,
    TiebreakStage,
    Turn,
    Withdrawal,
)
from roundrobin.selectors.tables import tables_for_competition

GAME_PATH = "game__round__session__competition__event"

TABLES = (
    Table(RatingSnapshot, "entry__competition__event"),
    Table(GameDetail, GAME_PATH),
    Table(
        TiebreakStage, "table__competition__event", codecs={"players_key": id_text("events.entry")}
    ),
    Table(RatingChange, "competition__event"),
    Table(Withdrawal, "entry__competition__event"),
    Table(PlayerToken, "entry__competition__event", secrets={"token": new_token}),
    Table(Turn, GAME_PATH),
    Table(ResultReport, GAME_PATH),
)


def correction_payload(payload: dict[str, Any], remap: Remap) -> dict[str, Any]:
    """The id in a round-robin correction's undo data: its game."""
    mapped = dict(payload)
    if "game" in mapped:
        mapped["game"] = remap("events.game", mapped["game"])
    return mapped


STANDING_COLUMNS: list[Column[Any]] = [  # (table, row) pairs
    Column(gettext_lazy("Table"), lambda item: item[0].number),
    Column(gettext_lazy("Place"), lambda item: item[1].place),
    Column(gettext_lazy("Player"), lambda item: item[1].name),
    Column(gettext_lazy("Club"), lambda item: item[1].entry.player.club),
    Column(gettext_lazy("Points"), lambda item: item[1].points),
    Column(gettext_lazy("Games played"), lambda item: item[1].played),
    Column(
        gettext_lazy("Rating at the start"),
        lambda item: item[1].snapshot.rating if item[1].snapshot else None,
    ),
    Column(gettext_lazy("Withdrawn"), lambda item: item[1].withdrawn),
]


def standings(competition: Competition) -> Sheet:
    """Every table's standings, table 1 first (three queries)."""
    tables = tables_for_competition(competition)
    items = [(table, row) for table in tables for row in table.rows]
    return sheet_of(_("Standings"), STANDING_COLUMNS, items)


RESULT_COLUMNS: list[Column[Any]] = [  # (table, stage name, game view) triples
    Column(gettext_lazy("Table"), lambda item: item[0].number),
    Column(gettext_lazy("Stage"), lambda item: item[1]),
    Column(gettext_lazy("White"), lambda item: item[2].white.player.name),
    Column(gettext_lazy("Black"), lambda item: item[2].black.player.name),
    Column(gettext_lazy("White's points"), lambda item: item[2].white_points),
    Column(gettext_lazy("Black's points"), lambda item: item[2].black_points),
    Column(gettext_lazy("Result"), lambda item: item[2].result),
    Column(gettext_lazy("How it ended"), lambda item: item[2].state),
    Column(gettext_lazy("Rated"), lambda item: item[2].detail.rated),
    Column(gettext_lazy("Ended at"), lambda item: item[2].detail.ended_at),
]


def results(competition: Competition) -> Sheet:
    """Every game, regular and tiebreak, with White's and Black's points (three queries)."""
    items: list[tuple[Any, str, Any]] = []
    for table in tables_for_competition(competition):
        for stage, views in [(None, table.games), *((s, s.games) for s in table.stages)]:
            stage_name = (
                _("Regular")
                if stage is None
                else f"{stage.stage.get_kind_display()} ({stage.stage.attempt})"
            )
            items.extend((table, stage_name, view) for view in views)
    return sheet_of(_("Results"), RESULT_COLUMNS, items)
