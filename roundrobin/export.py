"""What the round robin adds to an event export (``events.exchange.document``), and its tables and
games as sheets for the CSV and XLSX downloads: the organisers' downloads and the event document
keep full names, a sheet shown in public (``public=True``) the names players chose to show.

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


def _name(player: Any, public: bool) -> str:
    """A "Player", "White" or "Black" cell: the full name (the organisers' CSV and XLSX), or on
    a sheet anyone may read the name as the person chose to show it (``Player.public_name``)."""
    return str(player.public_name if public else player.name)


def standing_columns(*, public: bool = False) -> list[Column[Any]]:  # (table, row) pairs
    """The standings sheet's columns; ``public``: the "Player" column by public name."""
    return [
        Column(gettext_lazy("Table"), lambda item: item[0].number),
        Column(gettext_lazy("Place"), lambda item: item[1].place),
        Column(gettext_lazy("Player"), lambda item: _name(item[1].entry.player, public)),
        Column(gettext_lazy("Club"), lambda item: item[1].entry.player.club),
        Column(gettext_lazy("Points"), lambda item: item[1].points),
        Column(gettext_lazy("Games played"), lambda item: item[1].played),
        Column(
            gettext_lazy("Rating at the start"),
            lambda item: item[1].snapshot.rating if item[1].snapshot else None,
        ),
        Column(gettext_lazy("Withdrawn"), lambda item: item[1].withdrawn),
    ]


def standings(competition: Competition, *, public: bool = False) -> Sheet:
    """Every table's standings, table 1 first (three queries). ``public``: each player by their
    public name (a sheet anyone may read); else the full name (the organisers' downloads)."""
    tables = tables_for_competition(competition)
    items = [(table, row) for table in tables for row in table.rows]
    return sheet_of(_("Standings"), standing_columns(public=public), items)


def result_columns(*, public: bool = False) -> list[Column[Any]]:
    """The results sheet's columns, of (table, stage name, game view) triples; ``public``:
    White and Black by public name."""
    return [
        Column(gettext_lazy("Table"), lambda item: item[0].number),
        Column(gettext_lazy("Stage"), lambda item: item[1]),
        Column(gettext_lazy("White"), lambda item: _name(item[2].white.player, public)),
        Column(gettext_lazy("Black"), lambda item: _name(item[2].black.player, public)),
        Column(gettext_lazy("White's points"), lambda item: item[2].white_points),
        Column(gettext_lazy("Black's points"), lambda item: item[2].black_points),
        Column(gettext_lazy("Result"), lambda item: item[2].result),
        Column(gettext_lazy("How it ended"), lambda item: item[2].state),
        Column(gettext_lazy("Rated"), lambda item: item[2].detail.rated),
        Column(gettext_lazy("Ended at"), lambda item: item[2].detail.ended_at),
    ]


def results(competition: Competition, *, public: bool = False) -> Sheet:
    """Every game, regular and tiebreak, with White's and Black's points (three queries).
    ``public``: each player by their public name; else the full name (as ``standings``)."""
    items: list[tuple[Any, str, Any]] = []
    for table in tables_for_competition(competition):
        for stage, views in [(None, table.games), *((s, s.games) for s in table.stages)]:
            stage_name = (
                _("Regular")
                if stage is None
                else f"{stage.stage.get_kind_display()} ({stage.stage.attempt})"
            )
            items.extend((table, stage_name, view) for view in views)
    return sheet_of(_("Results"), result_columns(public=public), items)
