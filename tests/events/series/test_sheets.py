"""The series downloads (``events.series.sheets``): names as players chose them, their clubs, and
every worth a number with whether it counted in a column of its own."""

from __future__ import annotations

import csv
import io

from django.urls import reverse


def test_downloads_name_players_as_they_chose(season, client, desk_client):
    series, _nights, (a, _b, _c) = season
    a.name_shown = "short"
    a.save()
    public = client.get(
        reverse("events:series_download", args=[series.slug, "csv"])
    ).content.decode()
    assert "Anna A." in public and "Anna Ahl" not in public
    desk = desk_client.get(reverse("events:series_desk_download", args=[series.slug, "csv"]))
    assert "Anna Ahl" in desk.content.decode()
    xlsx = client.get(reverse("events:series_download", args=[series.slug, "xlsx"]))
    assert xlsx.status_code == 200 and xlsx.content[:2] == b"PK"


def sheet_rows(content: bytes) -> list[list]:
    from openpyxl import load_workbook

    return [
        list(row) for row in load_workbook(io.BytesIO(content)).active.iter_rows(values_only=True)
    ]


def test_the_public_downloads_carry_the_clubs_the_page_shows(season, client):
    series, _nights, players = season
    for player, club in zip(players, ("Ahl SK", "Berg BK", "Carlsson IF"), strict=True):
        player.club = club
        player.save()
    page = client.get(reverse("events:series_public", args=[series.slug])).content.decode()
    assert all(club in page for club in ("Ahl SK", "Berg BK", "Carlsson IF"))
    csv_response = client.get(reverse("events:series_download", args=[series.slug, "csv"]))
    rows = list(csv.reader(io.StringIO(csv_response.content.decode("utf-8-sig"))))
    club = rows[0].index("Club")
    assert [(row[1], row[club]) for row in rows[1:]] == [
        ("Anna Ahl", "Ahl SK"),
        ("Cecilia Carlsson", "Carlsson IF"),
        ("Bo Berg", "Berg BK"),
    ]
    xlsx = client.get(reverse("events:series_download", args=[series.slug, "xlsx"]))
    assert [row[2] for row in sheet_rows(xlsx.content)[1:]] == ["Ahl SK", "Carlsson IF", "Berg BK"]


def test_every_worth_is_a_number_and_whether_it_counted_a_column_of_its_own(season, client):
    """A: night 1 3 (counted), night 2 1 (beyond the best 2), night 3 3 (counted)."""
    series, nights, _players = season
    xlsx = client.get(reverse("events:series_download", args=[series.slug, "xlsx"]))
    header, *rows = sheet_rows(xlsx.content)
    names = [f"{c.event.name} · {c.name}" for c in nights]
    assert header[5:] == [text for name in names for text in (name, f"{name}: counted")]
    anna, cecilia, bo = rows
    assert anna[:5] == [1, "Anna Ahl", "Test Club", 6, 2]
    assert anna[5:] == [3, True, 1, False, 3, True]
    assert bo[5:] == [2, True, 3, True, 1, False]
    assert cecilia[5:] == [1, False, 2, True, 3, True]
    for row in rows:
        worths, flags = row[5::2], row[6::2]
        assert all(type(w) is int for w in worths) and all(type(f) is bool for f in flags)
        # what a spreadsheet adds up: the counted worths make the value
        assert sum(w for w, f in zip(worths, flags, strict=True) if f) == row[3]
    csv_response = client.get(reverse("events:series_download", args=[series.slug, "csv"]))
    csv_header, *csv_rows = csv.reader(io.StringIO(csv_response.content.decode("utf-8-sig")))
    assert csv_header == header
    assert csv_rows[0][5:] == ["3", "1", "1", "0", "3", "1"]
    assert not any("(" in cell for row in csv_rows for cell in row)
