"""Tests of roundrobin/export.py: the standings and results sheets."""

from __future__ import annotations

import json

from django.urls import reverse

from events.exchange import document as exchange
from roundrobin import export
from tests.support.roundrobin import (
    FULL,
    SHORT,
    page,
    shows_short,
)


def test_the_public_sheets_use_the_public_name_and_the_organisers_the_full_one(
    desk_client, named, event
):
    competition, _entries = named
    standings = export.standings(competition, public=True)
    results = export.results(competition, public=True)
    public = json.dumps([standings.rows, results.rows], default=str, ensure_ascii=False)
    assert shows_short(public)
    private = json.dumps(
        [export.standings(competition).rows, export.results(competition).rows],
        default=str,
        ensure_ascii=False,
    )
    assert FULL in private and SHORT not in private
    for kind in ("standings", "results"):
        download = desk_client.get(
            reverse("events:competition_export", args=[event.slug, competition.slug, kind, "csv"])
        )
        assert download.status_code == 200
        assert FULL in download.content.decode("utf-8-sig")
    # The event document (backup and restore) carries the name and the choice as they are.
    document = json.dumps(exchange.export_event(event), ensure_ascii=False, default=str)
    assert FULL in document and SHORT not in document


def test_the_public_results_sheet_shows_the_public_name(client, named):
    competition, _entries = named
    html = page(client, reverse("results_sheet", args=[competition.event.slug, competition.slug]))
    assert shows_short(html)
