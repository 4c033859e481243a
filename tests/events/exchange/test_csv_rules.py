"""The pure reading of player files (events.exchange.csv_rules): no database."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from hypothesis import assume, given, strategies as st

from events.exchange import csv_rules as rules

FILES = Path(__file__).parents[1] / "files"


def read(data: bytes) -> rules.Sheet:
    return rules.read_sheet(data, max_rating=4000)


@pytest.mark.parametrize(
    ("header", "field"),
    [
        ("Name", rules.NAME),
        ("Full name", rules.NAME),
        ("Namn", rules.NAME),
        ("Nimi", rules.NAME),
        ("Naam", rules.NAME),
        ("Spelare", rules.NAME),
        ("Mängija", rules.NAME),
        ("Förnamn", rules.FIRST_NAME),
        ("Eesnimi", rules.FIRST_NAME),
        ("Achternaam", rules.LAST_NAME),
        ("Club", rules.CLUB),
        ("Klubb", rules.CLUB),
        ("Klubi", rules.CLUB),
        ("Club/vereniging", rules.CLUB),
        ("Vereniging", rules.CLUB),
        ("Which club do you play for?", rules.CLUB),
        ("Name of your club", rules.CLUB),
        ("Email address", rules.EMAIL),
        ("E-mail", rules.EMAIL),
        ("E-post", rules.EMAIL),
        ("E-posti aadress", rules.EMAIL),
        ("E-mailadres", rules.EMAIL),
        ("Rating", rules.RATING),
        ("Ranking", rules.RATING),
        ("Reiting", rules.RATING),
        ("Timestamp", None),
        ("Dietary requirements", None),
        ("", None),
    ],
)
def test_it_names_the_field_of_a_header(header, field):
    assert rules.header_field(header) == field


def test_it_reads_excels_semicolon_csv_in_windows_1252():
    sheet = read((FILES / "excel_semicolon_cp1252.csv").read_bytes())
    assert (sheet.encoding, sheet.delimiter, sheet.header) == ("Windows-1252", ";", True)
    assert [name for name, _header in sheet.columns] == ["name", "club", "email", "rating"]
    assert sheet.ignored == ("Anteckning",)
    first = sheet.rows[0]
    assert (first.line, first.name, first.club, first.email, first.rating) == (
        2,
        "Åsa Öberg",
        "Kumla Spelklubb",
        "asa.oberg@example.se",
        1620,
    )
    assert sheet.rows[3].name == "Kask; Mari"  # a quoted separator stays in the cell
    assert [r.code for r in sheet.rows[-1].reasons] == ["bad_email"]


def test_it_reads_a_google_forms_export():
    sheet = read((FILES / "google_forms_export.csv").read_bytes())
    assert (sheet.encoding, sheet.delimiter) == ("UTF-8", ",")
    assert sheet.ignored == ("Timestamp", "Which games will you play?", "Dietary requirements")
    assert [(r.name, r.club, r.email) for r in sheet.rows[:2]] == [
        ("Anna Berg", "Uppsala", "anna.berg@example.se"),
        ("Õie Sööt", "Tallinna Lauamänguklubi", "oie@example.ee"),
    ]
    assert not any(r.reasons for r in sheet.rows)


def test_columns_in_any_order_are_read_by_their_header():
    sheet = read(b"Rating,E-mail,Club,Name\n1700,ann@example.org,Tartu,Ann Kask\n")
    row = sheet.rows[0]
    assert (row.name, row.club, row.email, row.rating) == (
        "Ann Kask",
        "Tartu",
        "ann@example.org",
        1700,
    )


def test_first_and_last_name_columns_make_the_name():
    sheet = read(b"Voornaam;Achternaam;Vereniging\nPieter;de Vries;Sjoelclub\n")
    assert (sheet.rows[0].name, sheet.rows[0].club) == ("Pieter de Vries", "Sjoelclub")


def test_a_file_without_header_is_read_by_position():
    sheet = read(b"Bo Ek,Lund,bo@example.org,1600\n")
    assert not sheet.header
    assert (sheet.rows[0].name, sheet.rows[0].rating) == ("Bo Ek", 1600)


def test_a_name_that_is_a_header_word_alone_does_not_make_a_header():
    # "Elo" is a rating header and an Estonian first name.
    sheet = read(b"Elo Mets,Tartu,,1500\n")
    assert not sheet.header and sheet.rows[0].name == "Elo Mets"


def test_a_header_without_a_name_column_is_refused_with_what_it_has():
    sheet = read(b"Club,Email\nLund,bo@example.org\n")
    assert sheet.problem is not None and sheet.problem.code == "no_name_column"


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (b"PK\x03\x04\x14\x00rest of a zip", "workbook"),
        (b"\x00\x01binary", "not_text"),
        (b'"unterminated,X\nB,Y\n', "bad_csv"),
    ],
)
def test_files_that_are_no_csv_are_refused(data, code):
    assert read(data).problem.code == code


def test_utf16_with_bom_is_read():
    sheet = read("Name\tClub\nÕie\tTallinn\n".encode("utf-16"))
    assert (sheet.encoding, sheet.delimiter, sheet.rows[0].name) == ("UTF-16", "\t", "Õie")


def test_a_row_longer_than_the_header_is_refused():
    sheet = read(b"name,club\nA,B,C\n")
    assert sheet.rows[0].reasons[0].code == "too_many_cells"


@pytest.mark.parametrize("text", ["1620", "1620.0", "1620,00", "0"])
def test_spreadsheet_numbers_are_ratings(text):
    assert rules.parse_rating(text, 4000) == int(text.split(".")[0].split(",")[0])


@pytest.mark.parametrize("text", ["²", "١٢٣", "1e3", "+5", "-5", "4001", "16.5", ""])
def test_anything_else_is_no_rating(text):
    with pytest.raises(ValueError):
        rules.parse_rating(text, 4000)


# --- properties --------------------------------------------------------------------------------

NAMES = st.text(
    alphabet=st.characters(codec="cp1252", categories=("Lu", "Ll"), exclude_characters="\x00"),
    min_size=1,
    max_size=20,
).filter(lambda s: rules.header_field(s) is None)
CLUBS = st.text(alphabet="abcdefghij ÅÄÖõüé,;\t\"'", max_size=15)


@given(
    rows=st.lists(st.tuples(NAMES, CLUBS, st.integers(0, 4000)), min_size=1, max_size=8),
    delimiter=st.sampled_from(rules.DELIMITERS),
    encoding=st.sampled_from(["utf-8", "utf-8-sig", "cp1252", "utf-16"]),
    order=st.permutations(["Name", "Club", "Rating"]),
    extra=st.booleans(),
)
def test_any_table_a_spreadsheet_writes_reads_back(rows, delimiter, encoding, order, extra):
    headers = list(order) + (["Timestamp"] if extra else [])
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=delimiter, lineterminator="\r\n")
    writer.writerow(headers)
    for name, club, rating in rows:
        values = {"Name": name, "Club": club, "Rating": str(rating), "Timestamp": "x"}
        writer.writerow([values[h] for h in headers])
    data = buffer.getvalue().encode(encoding)
    if encoding == "cp1252":  # bytes that also happen to be UTF-8 are read as UTF-8
        try:
            assume(data.decode("utf-8") == buffer.getvalue())
        except UnicodeDecodeError:
            pass
    sheet = read(data)
    assert sheet.problem is None
    assert sheet.delimiter == delimiter
    assert sheet.ignored == (("Timestamp",) if extra else ())
    expected = [(rules.clean_cell(n), rules.clean_cell(c), r) for n, c, r in rows]
    assert [(r.name, r.club, r.rating) for r in sheet.rows] == expected


@given(st.binary(max_size=300))
def test_any_bytes_give_a_sheet_or_a_reason_never_an_exception(data):
    sheet = read(data)
    assert sheet.problem is not None or all(isinstance(r.line, int) for r in sheet.rows)


@given(st.text(max_size=40))
def test_folding_is_idempotent_and_case_free(text):
    assert rules.fold(rules.fold(text)) == rules.fold(text)
    assert rules.fold(text) == rules.fold(text.casefold())
