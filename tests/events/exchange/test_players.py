"""The desk's CSV import of players (``events.exchange.players``): all rows or none, every bad row
named, known players reused."""

from __future__ import annotations

import pytest

from events.exchange import players as players_import
from events.models import Entry, Player
from tests.support.factories import EntryFactory, HostClubFactory, PlayerFactory

CSV_OK = (
    "\ufeffname;club;email;rating\n"
    "Õie Sööt;Tallinna Lauamänguklubi;oie@example.ee;1620\n"
    "Anna Lindqvist;LinCon;;\n"
).encode()


def test_it_imports_a_csv_with_bom_and_semicolons(competition):
    result = players_import.players_import_csv(competition=competition, data=CSV_OK)
    assert (result.created, result.reused) == (2, 0)
    oie = Player.objects.get(name="Õie Sööt")
    assert (oie.rating, oie.email) == (1620, "oie@example.ee")
    assert Player.objects.get(name="Anna Lindqvist").rating == 1500
    assert Entry.objects.filter(competition=competition).count() == 2


def test_it_imports_a_csv_with_commas_and_no_header_reusing_known_players(competition):
    known = PlayerFactory(name="Jüri Tamm", club="Tartu")
    data = b'JURI TAMM,tartu,,\n"Mari Kask, jr",Tartu,,1700\n'
    result = players_import.players_import_csv(competition=competition, data=data)
    assert (result.created, result.reused) == (1, 1)
    assert Entry.objects.filter(competition=competition, player=known).exists()
    assert Player.objects.filter(name="Mari Kask, jr").exists()


def test_it_lists_every_bad_row_and_imports_nothing(competition):
    EntryFactory(competition=competition, player=PlayerFactory(name="Taken", club=""))
    data = (
        b"name,club,email,rating\n"
        b"Good Person,Club,,\n"
        b",Club,,\n"
        b"Bad Mail,Club,nope,\n"
        b"Bad Rating,Club,,-5\n"
        b"Good Person,club,,\n"
        b"Taken,,,\n"
        b"Too,Many,Columns,1500,extra\n"
    )
    with pytest.raises(players_import.CsvImportError) as info:
        players_import.players_import_csv(competition=competition, data=data)
    lines = [p.line for p in info.value.problems]
    assert lines == [3, 4, 5, 6, 7, 8]
    reasons = {p.line: p.reason for p in info.value.problems}
    assert "name is missing" in reasons[3]
    assert "“nope” is not an e-mail address" in reasons[4]
    assert "“-5” is not a whole number" in reasons[5]
    assert "same player as line 2" in reasons[6]
    assert "already registered" in reasons[7]
    assert "5 columns" in reasons[8]
    assert not Player.objects.filter(name="Good Person").exists()
    assert Entry.objects.filter(competition=competition).count() == 1


def test_it_reads_a_csv_that_is_not_utf8_as_windows_1252(competition):
    players_import.players_import_csv(competition=competition, data="Sööt;x".encode("cp1252"))
    assert Player.objects.filter(name="Sööt", club="x").exists()


def test_it_refuses_a_binary_file(competition):
    with pytest.raises(players_import.CsvImportError) as info:
        players_import.players_import_csv(competition=competition, data=b"\x00\x01binary")
    assert "not text" in info.value.problems[0].reason


def test_it_refuses_an_empty_csv(competition):
    with pytest.raises(players_import.CsvImportError):
        players_import.players_import_csv(
            competition=competition, data=b"name,club,email,rating\n\n"
        )


@pytest.mark.parametrize("rating", ["²", "١٢٣", "1e3", "+5"])
def test_csv_refuses_ratings_that_are_not_plain_digits(competition, rating):
    data = f"name,club,email,rating\nSup Er,X,,{rating}\n".encode()
    with pytest.raises(players_import.CsvImportError) as info:
        players_import.players_import_csv(competition=competition, data=data)
    assert info.value.problems[0].line == 2


def test_csv_refuses_an_email_longer_than_the_register_keeps(competition):
    email = "a" * 64 + "@" + ".".join(["b" * 60] * 4) + ".com"
    data = f"name,club,email\nLong Mail,X,{email}\n".encode()
    with pytest.raises(players_import.CsvImportError) as info:
        players_import.players_import_csv(competition=competition, data=data)
    assert "is not an e-mail address" in info.value.problems[0].reason
    assert not Player.objects.exists()


@pytest.mark.parametrize(
    "text",
    [
        "\nname,club\nReal Two,X\n",
        "Player,Club\nReal Two,X\n",
        "sep=;\nname;club\nReal Two;X\n",
        "name\tclub\nReal Two\tX\n",
    ],
)
def test_csv_headers_and_separators_are_not_imported_as_players(competition, text):
    players_import.players_import_csv(competition=competition, data=text.encode())
    assert list(Player.objects.values_list("name", "club")) == [("Real Two", "X")]


def test_csv_refuses_an_unterminated_quote(competition):
    with pytest.raises(players_import.CsvImportError):
        players_import.players_import_csv(competition=competition, data=b'"unterminated,X\nB,Y\n')
    assert not Player.objects.exists()


def test_a_csv_row_names_the_first_of_homonyms(competition):
    first = Player.objects.create(host=HostClubFactory(), name="Bo Ek", club="Lund")
    Player.objects.create(host=HostClubFactory(), name="Bo Ek", club="Lund", homonym=1)
    result = players_import.players_import_csv(competition=competition, data=b"Bo Ek,Lund\n")
    assert (result.created, result.reused) == (0, 1)
    assert Entry.objects.get(competition=competition).player == first


def test_a_csv_whose_rows_are_all_registered_reports_each_row(competition):
    players_import.players_import_csv(competition=competition, data=b"Bo Ek,Lund\nCe Dur,\n")
    with pytest.raises(players_import.CsvImportError) as info:
        players_import.players_import_csv(competition=competition, data=b"Bo Ek,Lund\nCe Dur,\n")
    assert [p.line for p in info.value.problems] == [1, 2]
    assert Entry.objects.filter(competition=competition).count() == 2
