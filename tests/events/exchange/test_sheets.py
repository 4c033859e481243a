"""Spreadsheet formula injection: a player's name or club that a spreadsheet would
run as a formula leaves the desk's CSV and XLSX downloads as inert text, for every format,
through real requests; numbers stay numbers; the event archive (JSON) keeps the exact text."""

from __future__ import annotations

import csv
import io
import json
import re
import zipfile
from decimal import Decimal

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from events.exchange import sheets
from events.models import Competition, Player
from tests.support import totp

HOSTILE = [
    '=HYPERLINK("http://evil.example","x")',
    "+1+cmd|' /C calc'!A0",
    "-2+3",
    "@SUM(A1:A9)",
    "\t=1+1",
    "\r=2+2",
    "  =3+3",
]


def hostile_names(competitions: list[Competition]) -> dict[int, str]:
    """Every player of the demo competitions gets a hostile name and club: {player pk: name}."""
    names = {}
    players = Player.objects.filter(entries__competition__in=competitions).distinct()
    for n, player in enumerate(players.order_by("pk")):
        name = f"{HOSTILE[n % len(HOSTILE)]} {n}"
        Player.objects.filter(pk=player.pk).update(name=name, club=f"=CLUB({n})")
        names[player.pk] = name
    return names


def is_number(text: str) -> bool:
    return re.fullmatch(r"-?\d+(\.\d+)?", text) is not None


@pytest.mark.parametrize("kind", ["standings", "results"])
def test_no_download_carries_a_formula(demo, client, kind):
    organiser, competitions = demo
    names = hostile_names(competitions)
    client.force_login(organiser)
    seen_csv: set[str] = set()
    seen_xlsx: set[str] = set()
    for competition in competitions:
        args = [competition.event.slug, competition.slug, kind]
        response = client.get(reverse("events:competition_export", args=[*args, "csv"]))
        assert response.status_code == 200
        rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"), newline="")))
        for cell in [cell for row in rows for cell in row]:
            assert is_number(cell) or not sheets.reads_as_formula(cell), (competition, cell)
            seen_csv.add(cell)

        response = client.get(reverse("events:competition_export", args=[*args, "xlsx"]))
        assert response.status_code == 200
        with zipfile.ZipFile(io.BytesIO(response.content)) as archive:
            for member in archive.namelist():
                if member.startswith("xl/worksheets/"):
                    assert b"<f>" not in archive.read(member), member  # no formula at all
        workbook = load_workbook(io.BytesIO(response.content))
        for worksheet in workbook.worksheets:
            for row in worksheet.iter_rows():
                for cell in row:
                    assert cell.data_type != "f", (competition, cell.value)
                    if isinstance(cell.value, str):
                        seen_xlsx.add(cell.value)
    shown = [name for name in names.values() if name in seen_xlsx]
    assert shown, "the hostile names reach the XLSX exactly (no visible apostrophe)"
    for name in shown:
        assert "'" + name in seen_csv or "'" + name.replace("\r", "\n") in seen_csv


def test_numbers_stay_numbers_and_plain_text_is_untouched(db):
    sheet = sheets.Sheet(title="T", header=["a", "b", "c", "d", "e"])
    sheet.rows.append([-3, Decimal("-1.50"), "=1+1", "Anna-Lena", " -x"])
    text = sheets.csv_bytes(sheet).decode("utf-8-sig")
    assert text.splitlines()[1] == "-3,-1.50,'=1+1,Anna-Lena,' -x"
    worksheet = load_workbook(io.BytesIO(sheets.xlsx_bytes([sheet]))).active
    values = [cell.value for cell in worksheet[2]]
    assert values == [-3, -1.5, "=1+1", "Anna-Lena", " -x"]
    assert [cell.data_type for cell in worksheet[2]] == ["n", "n", "s", "s", "s"]


def test_the_event_archive_keeps_the_exact_text(demo, client):
    organiser, competitions = demo
    names = hostile_names(competitions)
    totp.turn_on(organiser)  # the event's file holds people's addresses
    client.force_login(organiser)
    event = competitions[0].event
    response = client.get(reverse("events:event_export", args=[event.slug]))
    assert response.status_code == 200
    text = json.dumps(json.loads(response.content))
    assert any(json.dumps(name)[1:-1] in text for name in names.values())
