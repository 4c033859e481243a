"""A club's season (page, CSV, XLSX) and its archive (ZIP), through real requests
(events/clubs/views/season.py).

The club "club" of the tests, by hand:

=========  ==========  ======================  =====================================
season     starts on   event                   who came (checked in, not withdrawn)
=========  ==========  ======================  =====================================
2025       2025-11-20  Old night               Anna
2026       2026-03-07  Spring cup (2 comps)    Anna (in both: once), Bert
2026       2026-06-12  Summer open             Anna, Eva (Bert entered, never checked
                                               in; Cleo checked in, then withdrew)
2026       2026-12-31  New Year sjoelen        Anna, Bert, Cleo (ends on 2027-01-01)
=========  ==========  ======================  =====================================

Dirk is entered at the Spring cup but never checked in: he has no row. Another club ("other")
holds a night on 2026-03-07 where its Zed checked in: neither appears.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import zipfile

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from openpyxl import load_workbook

from events.clubs import season as seasons
from events.exchange.document import import_event
from events.models import ClubRole, Entry, Event, HostClub
from tests.support.clubs import CHECKED, NOW, season_event as _event, season_world
from tests.support.factories import (
    CompetitionFactory,
    HostClubFactory,
    PlayerFactory,
    UserFactory,
)

HEADER = [
    "Name",
    "Club",
    "Events attended",
    "2026-03-07 Spring cup",
    "2026-06-12 Summer open",
    "2026-12-31 New Year sjoelen",
]
# Eva writes her club as a formula: the CSV quotes it as OWASP says, the XLSX keeps it text.
CSV_ROWS = [
    ["Anna", "Test Club", "3", "1", "1", "1"],
    ["Bert", "Test Club", "2", "1", "", "1"],
    ["Cleo", "Test Club", "1", "", "", "1"],
    ["Eva", "'=1+1", "1", "", "1", ""],
]
XLSX_ROWS = [
    ("Anna", "Test Club", 3, 1, 1, 1),
    ("Bert", "Test Club", 2, 1, None, 1),
    ("Cleo", "Test Club", 1, None, None, 1),
    ("Eva", "=1+1", 1, None, 1, None),
]
# The most queries a season page may take, whatever the number of people and events: the
# session and its user, the club, the role, the events, the entries, the years (and a little
# room for the base template).
PAGE_QUERIES = 10


@pytest.fixture(autouse=True)
def _now():
    with time_machine.travel(NOW, tick=False):
        yield


@pytest.fixture
def club(db) -> HostClub:
    return HostClubFactory(slug="club", name="Tornio Lautapeliklubi")


@pytest.fixture
def other(db) -> HostClub:
    return HostClubFactory(slug="other")


@pytest.fixture
def world(club, other) -> dict:
    return season_world(club, other)


def _member(club: HostClub, role: str, username: str, two_factor: bool = False):
    user = UserFactory(username=username, two_factor=two_factor)
    ClubRole.objects.create(club=club, user=user, role=role)
    return user


@pytest.fixture
def organiser_client(client, club):
    client.force_login(_member(club, "organiser", "olga"))
    return client


@pytest.fixture
def owner_client(client, club):
    # Two-factor login on: the archive holds people's addresses.
    client.force_login(_member(club, "owner", "otto", two_factor=True))
    return client


def _page(club: HostClub, query: str = "") -> str:
    return reverse("events:club_season", args=[club.slug]) + query


def _download(club: HostClub, file_format: str, query: str = "") -> str:
    return reverse("events:club_season_download", args=[club.slug, file_format]) + query


# --- the page --------------------------------------------------------------------------------


def test_it_shows_the_season(world, club, organiser_client):
    response = organiser_client.get(_page(club))
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    season = response.context["season"]
    assert season.year == 2026
    assert [(r.player.name, r.count) for r in season.rows] == [
        ("Anna", 3),
        ("Bert", 2),
        ("Cleo", 1),
        ("Eva", 1),
    ]
    html = response.content.decode()
    for slug in ("spring-cup", "summer-open", "new-year"):
        assert reverse("events:event_desk", args=[slug]) in html
    assert "old-night" not in html
    assert "Dirk" not in html and "Zed" not in html and "Other night" not in html
    assert '<td class="num">3</td>' in html  # Anna's count
    assert '<td class="num">7</td>' in html  # attendances
    assert 'href="?year=2025"' in html and 'href="?year=2026" aria-current="page"' in html
    assert _download(club, "csv", "?year=2026") in html
    assert _download(club, "xlsx", "?year=2026") in html
    assert " style=" not in html.split("<main", 1)[1] and "<script>" not in html


def test_it_shows_another_year_and_an_empty_one(world, club, organiser_client):
    response = organiser_client.get(_page(club, "?year=2025"))
    assert response.status_code == 200
    assert [(r.player.name, r.count) for r in response.context["season"].rows] == [("Anna", 1)]
    response = organiser_client.get(_page(club, "?year=2019"))
    assert response.status_code == 200
    assert "The club has no events in 2019." in response.content.decode()


@pytest.mark.parametrize("year", ["abc", "99999", "0", "-5", "2026.0", "1e3"])
def test_it_refuses_a_year_that_is_none(world, club, organiser_client, year):
    assert organiser_client.get(_page(club, f"?year={year}")).status_code == 404
    assert organiser_client.get(_download(club, "csv", f"?year={year}")).status_code == 404


def test_it_refuses_other_methods(world, club, organiser_client):
    assert organiser_client.post(_page(club)).status_code == 405


# --- the downloads ---------------------------------------------------------------------------


def test_it_downloads_the_season_as_csv(world, club, organiser_client):
    response = organiser_client.get(_download(club, "csv"))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="club-season-2026.csv"'
    assert "no-store" in response["Cache-Control"]
    assert response.content.startswith("\ufeff".encode())
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows == [HEADER, *CSV_ROWS]


def test_it_downloads_the_season_as_xlsx(world, club, organiser_client):
    response = organiser_client.get(_download(club, "xlsx"))
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="club-season-2026.xlsx"'
    workbook = load_workbook(io.BytesIO(response.content))
    sheet = workbook.active
    assert sheet.title == "Season 2026"
    rows = list(sheet.iter_rows(values_only=True))
    assert list(rows[0]) == HEADER
    assert rows[1:] == XLSX_ROWS
    assert sheet["B5"].data_type == "s"  # Eva's "=1+1" stays text


def test_it_downloads_another_year(world, club, organiser_client):
    response = organiser_client.get(_download(club, "csv", "?year=2025"))
    assert response["Content-Disposition"] == 'attachment; filename="club-season-2025.csv"'
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows == [
        ["Name", "Club", "Events attended", "2025-11-20 Old night"],
        ["Anna", "Test Club", "1", "1"],
    ]


@pytest.mark.parametrize("file_format", ["json", "pdf", "CSV", "xls"])
def test_it_has_no_other_formats(world, club, organiser_client, file_format):
    assert organiser_client.get(_download(club, file_format)).status_code == 404


# --- a constant number of queries ------------------------------------------------------------


def _big_season(club: HostClub, people: int, events: int) -> None:
    players = [PlayerFactory(host=club, name=f"Person {n:03d}") for n in range(people)]
    for j in range(events):
        event = _event(club, f"night-{j}", f"Night {j}", dt.date(2026, 1, 1) + dt.timedelta(j * 7))
        competition = CompetitionFactory(event=event)
        Entry.objects.bulk_create(
            Entry(
                competition=competition,
                player=player,
                number=i + 1,
                checked_in_at=CHECKED if (i + j) % 3 else None,
            )
            for i, player in enumerate(players)
        )


def _queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_it_reads_the_page_in_a_constant_number_of_queries(
    world, club, organiser_client, django_assert_max_num_queries
):
    with django_assert_max_num_queries(PAGE_QUERIES):
        small = organiser_client.get(_page(club))
    assert len(small.context["season"].rows) == 4
    few = _queries(organiser_client, _page(club))

    _big_season(club, people=60, events=10)
    with django_assert_max_num_queries(PAGE_QUERIES):
        big = organiser_client.get(_page(club))
    season = big.context["season"]
    assert len(season.events) == 13 and len(season.rows) == 64  # 60 people and the 4 above
    # Person i came to night j unless i + j is a multiple of 3.
    person_000 = next(r for r in season.rows if r.player.name == "Person 000")
    assert person_000.count == 6
    assert _queries(organiser_client, _page(club)) == few
    for file_format in ("csv", "xlsx"):
        with django_assert_max_num_queries(PAGE_QUERIES):
            organiser_client.get(_download(club, file_format))


# --- who may ---------------------------------------------------------------------------------


def _urls(club: HostClub) -> list[str]:
    return [
        _page(club),
        _download(club, "csv"),
        _download(club, "xlsx"),
        reverse("events:club_archive", args=[club.slug]),
    ]


def test_it_lets_owners_and_organisers_see_the_season(world, club, client):
    for role in ("owner", "organiser"):
        client.force_login(_member(club, role, f"a-{role}"))
        for url in _urls(club)[:3]:
            assert client.get(url).status_code == 200, (role, url)


def test_it_refuses_the_people_of_another_club(world, club, other, client):
    for role in ("owner", "organiser"):
        client.force_login(_member(other, role, f"their-{role}"))
        for url in _urls(club):
            assert client.get(url).status_code == 403, (role, url)


def test_it_refuses_a_scorekeeper_and_someone_without_a_role(world, club, client):
    client.force_login(_member(club, "scorekeeper", "sam"))
    for url in _urls(club):
        assert client.get(url).status_code == 403, url
    client.force_login(UserFactory(username="nobody"))
    for url in _urls(club):
        assert client.get(url).status_code == 403, url


def test_it_keeps_the_archive_for_owners(world, club, organiser_client):
    assert organiser_client.get(_urls(club)[3]).status_code == 403


def test_it_opens_the_archive_only_with_two_factor_login(world, club, client):
    client.force_login(_member(club, "owner", "oona"))
    response = client.get(_urls(club)[3])
    assert response.status_code == 403
    assert "Two-factor login needed" in response.content.decode()
    assert client.get(_urls(club)[0]).status_code == 200  # the season itself opens


def test_it_sends_anonymous_visitors_to_log_in(world, club, client):
    for url in _urls(club):
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("account_login")), url


def test_it_answers_404_for_an_unknown_club(db, owner_client):
    assert owner_client.get("/desk/clubs/nowhere/season/").status_code == 404


# --- the archive -----------------------------------------------------------------------------


def _archive(client, club: HostClub) -> zipfile.ZipFile:
    response = client.get(reverse("events:club_archive", args=[club.slug]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    assert response["Content-Disposition"] == 'attachment; filename="club-archive.zip"'
    assert "no-store" in response["Cache-Control"]
    return zipfile.ZipFile(io.BytesIO(response.content))


def test_it_archives_every_event_and_the_club(world, club, owner_client):
    archive = _archive(owner_client, club)
    assert archive.testzip() is None
    assert sorted(archive.namelist()) == [
        "club.json",
        "events/new-year.json",
        "events/old-night.json",
        "events/spring-cup.json",
        "events/summer-open.json",
    ]
    about = json.loads(archive.read("club.json"))
    assert about["format"] == "boardgame-events/club"
    assert about["club"] == {
        "name": "Tornio Lautapeliklubi",
        "short_name": "",
        "slug": "club",
        "country": "SE",
        "language": club.language,
        "time_zone": "Europe/Stockholm",
        "contact_email": "",
        "band_colour": "",
        "stripe_colour": "",
        "is_listed": True,
    }
    assert about["series"] == [{"slug": "club-league", "name": "Club league", "format": "blokus"}]
    assert [e["file"] for e in about["events"]] == [
        "events/old-night.json",
        "events/spring-cup.json",
        "events/summer-open.json",
        "events/new-year.json",
    ]
    spring = json.loads(archive.read("events/spring-cup.json"))
    assert spring["event"]["name"] == "Spring cup"
    assert spring["host"]["slug"] == "club"
    names = {row["name"] for row in spring["tables"]["events.player"]}
    assert names == {"Anna", "Bert", "Dirk"}


def test_it_archives_files_that_import_into_another_club(world, club, owner_client):
    archive = _archive(owner_client, club)
    fresh = HostClubFactory(slug="fresh")
    for name in archive.namelist():
        if not name.startswith("events/"):
            continue
        slug = "copy-" + name.removeprefix("events/").removesuffix(".json")
        report = import_event(json.loads(archive.read(name)), slug=slug, host=fresh)
        assert report.event.host == fresh
    copied = Event.objects.filter(host=fresh).order_by("starts_on")
    assert [e.slug for e in copied] == [
        "copy-old-night",
        "copy-spring-cup",
        "copy-summer-open",
        "copy-new-year",
    ]
    # The copies hold the same attendance as the originals.
    assert [(r.player.name, r.count, r.came) for r in seasons.season_of(fresh, 2026).rows] == [
        (r.player.name, r.count, r.came) for r in seasons.season_of(club, 2026).rows
    ]


def test_it_archives_a_club_without_events(db, owner_client, club):
    archive = _archive(owner_client, club)
    assert archive.namelist() == ["club.json"]
    assert json.loads(archive.read("club.json"))["events"] == []
