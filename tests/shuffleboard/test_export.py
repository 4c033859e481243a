"""The sjoelen sheets (``shuffleboard.export``): public sheets give the public name, the
organisers' the full one; sub-turns travel in the backup."""

from __future__ import annotations

from django.urls import reverse

from events.exchange import document as exchange
from shuffleboard import export, services
from shuffleboard.models import Turn
from tests.support.shuffleboard import (
    FULL,
    SHORT,
    SUB_TURN_ROWS,
)


def test_the_public_sheet_gives_the_public_name_and_the_organisers_download_the_full(
    desk_client, asa
):
    competition, a, _b = asa
    public = export.standings(competition, public=True)
    player = public.header.index("Player")
    assert [row[player] for row in public.rows] == [SHORT, "Jüri Tamm"]
    games = export.results(competition, public=True)
    assert {row[games.header.index("Player")] for row in games.rows} == {SHORT, "Jüri Tamm"}
    for kind in ("standings", "results"):
        download = desk_client.get(
            reverse(
                "events:competition_export",
                args=[competition.event.slug, competition.slug, kind, "csv"],
            )
        )
        assert download.status_code == 200
        assert FULL in download.content.decode("utf-8-sig")
    assert [row[player] for row in export.standings(competition).rows] == [FULL, "Jüri Tamm"]


def test_sub_turns_travel_in_the_backup_and_old_backups_import(playing):
    entry = playing[0]
    services.turn_record(entry=entry, number=1, counts=(5, 9, 5, 7), sub_turns=SUB_TURN_ROWS)
    services.turn_record(entry=entry, number=2, counts=(5, 9, 5, 7))
    document = exchange.export_event(entry.competition.event)
    exchange.import_event(document, slug="copy")
    copied = Turn.objects.filter(entry__competition__event__slug="copy").order_by("number")
    assert [t.sub_turns for t in copied] == [[list(r) for r in SUB_TURN_ROWS], None]
    for rows in document["tables"].values():  # a backup from before sub-turns were kept
        for row in rows:
            row.pop("sub_turns", None)
    exchange.import_event(document, slug="old")
    old = Turn.objects.filter(entry__competition__event__slug="old")
    assert [t.sub_turns for t in old] == [None, None]
    sheet = export.results(entry.competition)
    assert sheet.rows[0][-1] == "6 3 5 4 | 2 2 2 1 | 1 0 0 0" and sheet.rows[1][-1] == ""
