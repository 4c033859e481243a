"""The desk's player import over HTTP: upload, preview, confirm."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from events import services
from events.exchange import players as imports, players as players_import
from events.models import Entry, Player
from tests.support.factories import CompetitionFactory, EntryFactory, PlayerFactory

FILES = Path(__file__).parents[2] / "files"
EXCEL = (FILES / "excel_semicolon_cp1252.csv").read_bytes()
GOOGLE = (FILES / "google_forms_export.csv").read_bytes()


def desk_url(name, competition):
    return reverse(f"events:{name}", args=[competition.event.slug, competition.slug])


def upload(client, competition, data: bytes, name: str = "players.csv"):
    file = SimpleUploadedFile(name, data, content_type="text/csv")
    return client.post(desk_url("csv_import", competition), {"file": file})


def confirm_data(preview) -> dict[str, str]:
    form = preview.context["confirm_form"]
    return {"payload": form["payload"].initial, "submission": form["submission"].initial}


def confirm(client, competition, preview):
    return client.post(desk_url("csv_import_confirm", competition), confirm_data(preview))


def test_it_previews_an_excel_semicolon_file_in_windows_1252_then_imports_it(
    desk_client, competition
):
    known = PlayerFactory(name="Jüri Tamm", club="Tartu Lauamänguklubi")
    preview = upload(desk_client, competition, EXCEL, "Anmälan.csv")
    html = preview.content.decode()
    assert preview.status_code == 200
    plan = preview.context["plan"]
    assert [r.action for r in plan.rows] == ["new", "known", "new", "new", "new", "refused"]
    assert "Windows-1252" in html and "semicolon" in html
    assert "“Anteckning”" in html  # the ignored column is named
    assert "sven-at-example" in html  # the refused row says why
    assert "Register 5 players" in html
    assert not Entry.objects.exists()  # a preview writes nothing

    response = confirm(desk_client, competition, preview)
    assert response.status_code == 302 and response.url == competition.get_desk_url()
    entries = Entry.objects.filter(competition=competition)
    assert entries.count() == 5
    assert entries.filter(player=known).exists()
    assert Player.objects.filter(name="Åsa Öberg", rating=1620).exists()
    assert Player.objects.filter(name="Kask; Mari").exists()
    assert not Player.objects.filter(name="Sven Bad").exists()
    assert sorted(entries.values_list("number", flat=True)) == [1, 2, 3, 4, 5]


def test_it_imports_a_google_forms_export_leaving_out_the_questions_and_a_repeat(
    desk_client, competition
):
    preview = upload(desk_client, competition, GOOGLE)
    html = preview.content.decode()
    plan = preview.context["plan"]
    assert plan.ignored == ("Timestamp", "Which games will you play?", "Dietary requirements")
    assert [r.action for r in plan.rows] == ["new", "new", "new", "refused"]
    assert "the same player as line 2" in html
    confirm(desk_client, competition, preview)
    assert set(
        Entry.objects.filter(competition=competition).values_list("player__name", flat=True)
    ) == {"Anna Berg", "Õie Sööt", "Pieter de Vries"}


def test_a_confirmation_posted_twice_imports_once(desk_client, competition):
    preview = upload(desk_client, competition, GOOGLE)
    first = confirm(desk_client, competition, preview)
    second = confirm(desk_client, competition, preview)
    assert first.status_code == second.status_code == 302
    assert second.url == competition.get_desk_url()
    assert Entry.objects.filter(competition=competition).count() == 3
    assert Player.objects.count() == 3


def test_an_altered_preview_is_refused_and_imports_nothing(desk_client, competition):
    preview = upload(desk_client, competition, GOOGLE)
    data = confirm_data(preview)
    data["payload"] = data["payload"][:-3] + "abc"
    response = desk_client.post(desk_url("csv_import_confirm", competition), data)
    assert response.status_code == 400
    assert "upload the file again" in response.content.decode()
    assert not Entry.objects.exists()


def test_a_preview_cannot_be_confirmed_in_another_competition(desk_client, competition, event):

    other = CompetitionFactory(event=event, name="Sjoelen", format="shuffleboard", settings={})
    preview = upload(desk_client, competition, GOOGLE)
    response = desk_client.post(desk_url("csv_import_confirm", other), confirm_data(preview))
    assert response.status_code == 400
    assert not Entry.objects.exists()


def test_the_confirmation_plans_again_against_the_register_as_it_is_now(desk_client, competition):
    preview = upload(desk_client, competition, GOOGLE)
    # Meanwhile the desk registers one of the file's players by hand.
    services.player_register_new(competition=competition, name="Pieter de Vries")
    response = confirm(desk_client, competition, preview)
    assert response.status_code == 302
    assert Entry.objects.filter(competition=competition).count() == 3
    assert Player.objects.filter(name="Pieter de Vries").count() == 1


def test_a_file_whose_players_are_all_registered_has_nothing_to_confirm(desk_client, competition):
    confirm(desk_client, competition, upload(desk_client, competition, GOOGLE))
    again = upload(desk_client, competition, GOOGLE)
    assert again.status_code == 400
    assert again.context["confirm_form"] is None
    assert {r.action for r in again.context["plan"].rows} == {"registered", "refused"}
    assert "already registered" in again.content.decode()


def test_imported_players_continue_the_competitions_numbers(desk_client, competition):
    EntryFactory(competition=competition)
    EntryFactory(competition=competition)
    confirm(desk_client, competition, upload(desk_client, competition, GOOGLE))
    numbers = Entry.objects.filter(competition=competition).values_list("number", flat=True)
    assert sorted(numbers) == [1, 2, 3, 4, 5]


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"PK\x03\x04zip", "Excel workbook"),
        (b"Club,Email\nLund,a@b.se\n", "no column holds the players"),
        (b"name,club\n\n", "no players"),
    ],
)
def test_a_file_it_cannot_use_says_why(desk_client, competition, data, words):
    response = upload(desk_client, competition, data)
    assert response.status_code == 400
    assert words in response.content.decode()
    assert response.context["plan"] is None


def test_the_preview_costs_the_same_queries_for_5_or_500_rows(
    desk_client, competition, django_assert_max_num_queries
):
    many = "Name,Club\n" + "".join(f"Player {i},Club {i % 7}\n" for i in range(500))
    PlayerFactory(name="Player 3", club="Club 3")
    # session, user, competition + event, role, known players, registered entries
    with django_assert_max_num_queries(8):
        small = upload(desk_client, competition, b"Name\nA\nB\nC\nD\nE\n")
    with django_assert_max_num_queries(8):
        big = upload(desk_client, competition, many.encode())
    assert small.status_code == big.status_code == 200
    assert len(big.context["plan"].known) == 1


def test_the_import_pages_are_for_the_events_organisers_only(client, outsider, competition):
    client.force_login(outsider)
    assert client.get(desk_url("csv_import", competition)).status_code == 403
    assert client.post(desk_url("csv_import_confirm", competition), {}).status_code == 403


def test_the_confirmation_is_post_only(desk_client, competition):
    assert desk_client.get(desk_url("csv_import_confirm", competition)).status_code == 405


def test_all_or_nothing_import_keeps_refusing_a_file_with_a_bad_row(competition):
    with pytest.raises(players_import.CsvImportError) as info:
        imports.players_import_csv(competition=competition, data=EXCEL)
    assert [p.line for p in info.value.problems] == [7]
    assert not Entry.objects.exists()


def test_csv_import_page(desk_client, competition):
    assert desk_client.get(desk_url("csv_import", competition)).status_code == 200
    upload = SimpleUploadedFile("p.csv", "name;club\nÕie Sööt;Tallinn\n".encode(), "text/csv")
    preview = desk_client.post(desk_url("csv_import", competition), {"file": upload})
    assert preview.status_code == 200  # the preview: nothing written yet
    assert not Entry.objects.exists()
    confirm = preview.context["confirm_form"]
    data = {"payload": confirm["payload"].initial, "submission": confirm["submission"].initial}
    response = desk_client.post(desk_url("csv_import_confirm", competition), data)
    assert response.status_code == 302
    assert Entry.objects.filter(competition=competition, player__name="Õie Sööt").exists()


def test_csv_import_lists_bad_rows(desk_client, competition):
    upload = SimpleUploadedFile("p.csv", b"name,club,email\nA,B,bad\n,,x@y.z\n", "text/csv")
    response = desk_client.post(desk_url("csv_import", competition), {"file": upload})
    html = response.content.decode()
    assert response.status_code == 400
    assert "No row of this file can be imported" in html
    assert [row.line for row in response.context["plan"].rows] == [2, 3]
    assert "is not an e-mail address" in html and "the name is missing" in html
    assert not Entry.objects.filter(competition=competition).exists()


def test_csv_import_without_a_file_says_so(desk_client, competition):
    response = desk_client.post(desk_url("csv_import", competition), {})
    assert "This field is required." in response.content.decode()


@pytest.mark.parametrize(
    "content",
    [
        b"\x00\x01\x02binary",
        b"\xff\xfe\x00n\x00a",
        b'name\n"unclosed,quote\n',
        b"a;b;c;d;e;f\n" * 3,
    ],
)
def test_csv_import_survives_hostile_files(desk_client, competition, content):
    upload = SimpleUploadedFile("p.csv", content, "text/csv")
    response = desk_client.post(desk_url("csv_import", competition), {"file": upload})
    assert response.status_code in (200, 400)  # a preview, or why not
    assert not Entry.objects.filter(competition=competition).exists()
