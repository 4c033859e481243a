"""What the round robin adds to an event export (``events.exchange.document``), and its tables and
games as sheets for the CSV and XLSX downloads.

Private links (``PlayerToken.token``) are secrets: never exported; an import makes new ones.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from events.exchange.document import Remap, Table, id_text, new_token
from events.exchange.sheets import Sheet
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


def standings(competition: Competition) -> Sheet:
    """Every table's standings, table 1 first (three queries)."""
    sheet = Sheet(
        title=_("Standings"),
        header=[
            _("Table"),
            _("Place"),
            _("Player"),
            _("Club"),
            _("Points"),
            _("Games played"),
            _("Rating at the start"),
            _("Withdrawn"),
        ],
    )
    for table in tables_for_competition(competition):
        for row in table.rows:
            sheet.rows.append(
                [
                    table.number,
                    row.place,
                    row.name,
                    row.entry.player.club,
                    row.points,
                    row.played,
                    row.snapshot.rating if row.snapshot else None,
                    row.withdrawn,
                ]
            )
    return sheet


def results(competition: Competition) -> Sheet:
    """Every game, regular and tiebreak, with White's and Black's points (three queries)."""
    sheet = Sheet(
        title=_("Results"),
        header=[
            _("Table"),
            _("Stage"),
            _("White"),
            _("Black"),
            _("White's points"),
            _("Black's points"),
            _("Result"),
            _("How it ended"),
            _("Rated"),
            _("Ended at"),
        ],
    )
    for table in tables_for_competition(competition):
        for stage, views in [(None, table.games), *((s, s.games) for s in table.stages)]:
            stage_name = (
                _("Regular")
                if stage is None
                else f"{stage.stage.get_kind_display()} ({stage.stage.attempt})"
            )
            for view in views:
                sheet.rows.append(
                    [
                        table.number,
                        stage_name,
                        view.white.player.name,
                        view.black.player.name,
                        view.white_points,
                        view.black_points,
                        view.result,
                        view.state,
                        view.detail.rated,
                        view.detail.ended_at,
                    ]
                )
    return sheet
