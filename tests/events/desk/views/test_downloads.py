"""The desk's downloads: standings and results as CSV and XLSX, the whole event as JSON; for
the event's organisers only, in a constant number of queries."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import re
from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from openpyxl import load_workbook

from blokus.rules import COLOURS
from events.exchange import document as exchange, sheets
from events.models import Competition, Event
from tests.support import totp
from tests.support.factories import (
    CompetitionFactory,
    EntryFactory,
    EventFactory,
    GameFactory,
    RoundFactory,
    SeatFactory,
    SessionFactory,
    UserFactory,
)

FROZEN = dt.datetime(2026, 6, 12, 9, 30, tzinfo=dt.UTC)
KINDS = [("standings", "csv"), ("standings", "xlsx"), ("results", "csv"), ("results", "xlsx")]


def export_url(competition: Competition, kind: str, file_format: str) -> str:
    return reverse(
        "events:competition_export",
        args=[competition.event.slug, competition.slug, kind, file_format],
    )


def test_every_format_downloads_standings_and_results_as_csv_and_xlsx(demo, client):
    organiser, competitions = demo
    client.force_login(organiser)
    for competition in competitions:
        found = sheets.competition_sheets(competition)
        for kind, file_format in KINDS:
            response = client.get(export_url(competition, kind, file_format))
            assert response.status_code == 200
            name = f"{competition.event.slug}-{competition.slug}-{kind}.{file_format}"
            assert response["Content-Disposition"] == f'attachment; filename="{name}"'
            assert "no-store" in response["Cache-Control"]
            sheet = found[kind]
            assert sheet.rows, (competition.format, kind)
            if file_format == "csv":
                assert response["Content-Type"] == "text/csv; charset=utf-8"
                assert response.content.startswith("\ufeff".encode())  # Excel reads UTF-8
                rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
                assert rows[0] == [str(title) for title in sheet.header]
                assert len(rows) == len(sheet.rows) + 1
                # Plain machine numbers (1.5): no decimal commas.
                assert not any(re.fullmatch(r"\d+,\d+", c) for row in rows[1:] for c in row)
            else:
                book = load_workbook(io.BytesIO(response.content))
                cells = list(book.active.iter_rows(values_only=True))
                assert list(cells[0]) == [str(title) for title in sheet.header]
                assert len(cells) == len(sheet.rows) + 1
                numbers = [v for row in cells[1:] for v in row if isinstance(v, int | float)]
                assert numbers, "numbers are numeric cells, not text"


def test_the_blokus_standings_download_holds_every_player_the_page_lists(demo, client):
    """The demo's 24 players, 12 seated so far: the 12 not seated yet follow the
    ranking without a place (they were missing)."""
    organiser, competitions = demo
    client.force_login(organiser)
    competition = next(c for c in competitions if c.format == "blokus")
    listed = competition.entries.filter(withdrawn_at=None).count()
    response = client.get(export_url(competition, "standings", "csv"))
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))[1:]
    assert len(rows) == listed == 24
    names = {row[1] for row in rows}
    assert names == set(competition.entries.values_list("player__name", flat=True))
    ranked = [row for row in rows if row[0]]
    assert 0 < len(ranked) < len(rows) and rows[: len(ranked)] == ranked  # ranked first


def test_half_points_are_machine_numbers_in_csv_and_numbers_in_xlsx(db):
    sheet = sheets.Sheet(title="T", header=["a", "b", "c", "d"])
    sheet.rows.append([Decimal("1.50"), Decimal("2.00"), True, None])
    from fractions import Fraction

    sheet.rows.append([Fraction(3, 2), Fraction(2), False, "Õie"])
    text = sheets.csv_bytes(sheet).decode("utf-8-sig")
    assert text.splitlines()[1:] == ["1.50,2,1,", "1.5,2,0,Õie"]
    book = load_workbook(io.BytesIO(sheets.xlsx_bytes([sheet])))
    assert list(book.active.iter_rows(min_row=2, values_only=True)) == [
        (1.5, 2, True, None),
        (1.5, 2, False, "Õie"),
    ]


def test_the_event_downloads_as_json_that_imports_again(demo, client):
    organiser, competitions = demo
    totp.turn_on(organiser)
    client.force_login(organiser)
    event = competitions[0].event
    response = client.get(reverse("events:event_export", args=[event.slug]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"].startswith(f'attachment; filename="{event.slug}-')
    document = json.loads(response.content)
    assert (document["format"], document["version"]) == ("boardgame-events/event", 1)
    copy = exchange.import_event(document, slug="from-the-desk").event
    assert copy.competitions.count() == event.competitions.count()


def test_the_desk_links_to_every_download(demo, client):
    organiser, competitions = demo
    client.force_login(organiser)
    for competition in competitions:
        page = client.get(competition.get_desk_url()).content.decode()
        for kind, file_format in KINDS:
            assert export_url(competition, kind, file_format) in page
        assert reverse("events:event_export", args=[competition.event.slug]) in page


@pytest.mark.parametrize("who", ["anonymous", "outsider"])
def test_only_the_events_organisers_download(demo, client, who):
    _, competitions = demo
    competition = competitions[0]
    if who == "outsider":
        client.force_login(UserFactory(username="mallory"))
    urls = [export_url(competition, k, f) for k, f in KINDS]
    urls.append(reverse("events:event_export", args=[competition.event.slug]))
    for url in urls:
        response = client.get(url)
        if who == "anonymous":
            assert response.status_code == 302 and "/login/" in response["Location"]
        else:
            assert response.status_code == 403


def test_unknown_downloads_are_404(demo, client):
    organiser, competitions = demo
    client.force_login(organiser)
    competition = competitions[0]
    for kind, file_format in [("standings", "pdf"), ("crosstable", "csv"), ("all", "csv")]:
        assert client.get(export_url(competition, kind, file_format)).status_code == 404
    assert client.get(export_url(competition, "all", "xlsx")).status_code == 200
    assert client.get(reverse("events:event_export", args=["no-such-event"])).status_code == 404
    assert client.post(export_url(competition, "standings", "csv")).status_code == 405


def blokus_event(players: int) -> tuple[Event, Competition]:
    """A Blokus competition with ``players`` entries, each in one finished game of four."""
    organiser = User.objects.get_or_create(username="organiser")[0]
    event = EventFactory(organisers=[organiser])
    competition = CompetitionFactory(event=event, format="blokus")
    session = SessionFactory(competition=competition, number=1)
    round_ = RoundFactory(session=session, number=1)
    entries = EntryFactory.create_batch(players, competition=competition)
    for table, start in enumerate(range(0, players, 4), start=1):
        game = GameFactory(round=round_, number=table, status="finished")
        for position, entry in enumerate(entries[start : start + 4], start=1):
            SeatFactory(
                game=game,
                entry=entry,
                position=position,
                colour=COLOURS[position - 1],
                score=-position,
                points=Decimal(4 - position),
            )
    return event, competition


def queries_of(client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_downloads_cost_the_same_queries_for_8_or_48_players(
    db, client, django_assert_max_num_queries
):
    small_event, small = blokus_event(8)
    big_event, big = blokus_event(48)
    organiser = User.objects.get(username="organiser")
    totp.turn_on(organiser)  # the event's file holds people's addresses
    client.force_login(organiser)
    for kind, file_format in KINDS:
        budget = queries_of(client, export_url(small, kind, file_format))
        with django_assert_max_num_queries(budget):
            client.get(export_url(big, kind, file_format))
    budget = queries_of(client, reverse("events:event_export", args=[small_event.slug]))
    # Session and user, the event and organisers, then one query per table and per history table.
    assert budget <= 70
    with django_assert_max_num_queries(budget):
        response = client.get(reverse("events:event_export", args=[big_event.slug]))
    assert len(json.loads(response.content)["tables"]["events.seat"]) == 48


def test_admin_downloads_an_event_and_a_competition(demo, client):
    _, competitions = demo
    competition = competitions[0]
    root = User.objects.create_superuser("root", password="x")
    totp.turn_on(root)  # site staff open the admin with two-factor login only
    client.force_login(root)
    response = client.post(
        reverse("admin:events_event_changelist"),
        {"action": "admin_event_json", "_selected_action": [competition.event.pk]},
    )
    assert response.status_code == 200
    assert json.loads(response.content)["event"]["slug"] == competition.event.slug
    response = client.post(
        reverse("admin:events_competition_changelist"),
        {"action": "admin_competition_xlsx", "_selected_action": [competition.pk]},
    )
    assert response.status_code == 200
    book = load_workbook(io.BytesIO(response.content))
    assert len(book.sheetnames) == 2
    # Several at once: a message, no file.
    response = client.post(
        reverse("admin:events_event_changelist"),
        {"action": "admin_event_json", "_selected_action": [c.event.pk for c in competitions]},
        follow=True,
    )
    assert response.status_code == 200 and "text/html" in response["Content-Type"]
