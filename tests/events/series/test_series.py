"""Series across events through real requests: a three-night sjoelen series worked by hand, a
correction at the desk followed by the public page, the desk's forms with hostile values, the
admin's checks, and the query budget."""

from __future__ import annotations

import csv
import datetime as dt
import io
import re

import pytest
from django.urls import reverse

from events.errors import Forbidden, Invalid, Stale
from events.models import ClubRole, Correction
from events.series import selectors, services
from events.series.models import Series, SeriesCompetition
from shuffleboard import services as sjoelen
from shuffleboard.models import Turn
from tests.support.factories import EventFactory, HostClubFactory, PlayerFactory
from tests.support.shuffleboard import PlayingEntryFactory, SjoelenFactory

HIGH, LOW, NIL = (7, 7, 7, 9), (5, 9, 5, 7), (1, 1, 1, 1)  # 148, 116 and 20 points


def night(organiser, day: int, scores: dict):
    event = EventFactory(
        name=f"Night {day}",
        slug=f"night-{day}",
        starts_on=dt.date(2026, 1, day),
        ends_on=dt.date(2026, 1, day),
        organisers=[organiser],
    )
    competition = SjoelenFactory(event=event, slug="sjoelen")
    for player, counts in scores.items():
        entry = PlayingEntryFactory(competition=competition, player=player)
        sjoelen.turn_record(entry=entry, number=1, counts=counts, board=1)
    return competition


@pytest.fixture
def season(organiser):
    """Three nights of A, B and C (placement points: 3, 2, 1 in a field of three).

    Night 1: A 148, B 116, C 20 -> A 3, B 2, C 1
    Night 2: B 148, C 116, A 20 -> B 3, C 2, A 1
    Night 3: A 148, C 148, B 20 -> A 3, C 3 (shared 1st, the higher points), B 1
    Best 2 of 3: A 3+3 = 6; B 3+2 = 5; C 3+2 = 5. B and C: as many results counted, the same
    best (3); at the latest event C had 3, B 1: C 2nd, B 3rd.
    """
    a, b, c = (PlayerFactory(name=n) for n in ("Anna Ahl", "Bo Berg", "Cecilia Carlsson"))
    nights = [
        night(organiser, 1, {a: HIGH, b: LOW, c: NIL}),
        night(organiser, 2, {b: HIGH, c: LOW, a: NIL}),
        night(organiser, 3, {a: HIGH, c: HIGH, b: NIL}),
    ]
    series = services.series_create(
        by=organiser, name="Winter 2026", format_key="shuffleboard", kind="placement", best=2
    )
    for competition in nights:
        services.series_join(series=series, competition_id=competition.pk, by=organiser)
    return Series.objects.get(pk=series.pk), nights, (a, b, c)


def order(html: str) -> list[int]:
    return [int(pk) for pk in re.findall(r'data-player="(\d+)"', html)]


def test_a_three_night_series_worked_by_hand(season):
    series, _nights, (a, b, c) = season
    table = selectors.series_table(series)
    assert [(line.player, line.place, line.value) for line in table.lines] == [
        (a, 1, 6),
        (c, 2, 5),
        (b, 3, 5),
    ]
    b_line = selectors.line_of(table, b.pk)
    assert [
        (u.member.competition.event.slug, u.counted.worth, u.counted.reason) for u in b_line.used
    ] == [
        ("night-3", 1, "beyond_best"),
        ("night-2", 3, "counted"),
        ("night-1", 2, "counted"),
    ]


def test_a_correction_at_the_desk_changes_the_public_page_at_once(client, season, organiser):
    """A's 148 on night 3 corrected to 20: night 3 is C 3, A and B 2 (shared 2nd). Best 2:
    A 3+2, B 3+2, C 3+2 = 5 each; the latest night puts C first; A and B equal there, night 2
    gives B 3 against A's 1: C, B, A."""
    series, nights, (a, b, c) = season
    url = reverse("events:series_public", args=[series.slug])
    first = client.get(url)
    assert first.status_code == 200
    assert order(first.content.decode()) == [a.pk, c.pk, b.pk]
    etag = first["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304

    turn = Turn.objects.get(entry__competition=nights[2], entry__player=a)
    sjoelen.turn_correct(turn=turn, revision=turn.revision, counts=NIL, entered_by=organiser)

    poll = client.get(url, HTTP_IF_NONE_MATCH=etag, HTTP_HX_REQUEST="true")
    assert poll.status_code == 200
    html = poll.content.decode()
    assert order(html) == [c.pk, b.pk, a.pk]
    assert 'data-correction="' in html  # the corrected note the competition pages show
    player = client.get(reverse("events:series_player", args=[series.slug, a.pk]))
    assert player.status_code == 200
    assert "Place 3" in player.content.decode()


def test_a_final_always_counts_and_the_minimum_hides_the_newcomer(season, organiser):
    series, nights, (a, b, c) = season
    newcomer = PlayerFactory(name="Dan Dahl")
    final = night(organiser, 20, {newcomer: HIGH, b: LOW, a: NIL})
    member = services.series_join(
        series=series, competition_id=final.pk, by=organiser, is_final=True
    )
    services.series_update(
        series=series,
        by=organiser,
        expected_version=Series.objects.get(pk=series.pk).version,
        values={"min_events": 2},
    )
    table = selectors.series_table(Series.objects.get(pk=series.pk))
    # the final (field of 3): Dan 3, B 2, A 1, counted besides the best 2: A 6 + 1, B 5 + 2,
    # C 5; A and B equal in value, results counted and best result: the final (the latest
    # event) gives B 2 against A's 1
    assert [(line.player, line.place, line.value) for line in table.ranked] == [
        (b, 1, 7),
        (a, 2, 7),
        (c, 3, 5),
    ]
    assert [line.player for line in table.unranked] == [newcomer]
    final_use = next(u for u in selectors.line_of(table, a.pk).used if u.member == member)
    assert final_use.counted.reason == "final"


def test_the_sjoelen_average_with_classes_and_each_night_against_it(season, organiser):
    series, _nights, (a, b, c) = season
    services.series_update(
        series=series,
        by=organiser,
        expected_version=Series.objects.get(pk=series.pk).version,
        values={"kind": "average", "best": None, "class_a": 100, "class_b": 90},
    )
    table = selectors.series_table(Series.objects.get(pk=series.pk))
    # A: (148 + 20 + 148) / 3 = 105.33 (A); C: (20 + 116 + 148) / 3 = 94.67 (B); B: 94.67 (B)
    values = {line.player: (line.value, line.series_class) for line in table.lines}
    assert values[a] == (pytest.approx(316 / 3), "A")
    assert values[c][1] == "B" and values[b][1] == "B"
    night_3 = next(
        u
        for u in selectors.line_of(table, a.pk).used
        if u.member.competition.event.slug == "night-3"
    )
    assert float(night_3.against_average) == pytest.approx(148 - 316 / 3)
    # C and B: the same average, and as many games; the latest night decides (C 148 > B 20)
    assert [line.player for line in table.classes()[1][1]] == [c, b]


def test_a_competition_of_another_format_is_refused_beside_the_field(
    season, organiser, desk_client
):
    from events.formats import default_settings
    from tests.support.factories import CompetitionFactory

    series, nights, _players = season
    other = CompetitionFactory(
        event=nights[0].event, slug="blokus", format="blokus", settings=default_settings("blokus")
    )
    with pytest.raises(Invalid) as refused:
        services.series_join(series=series, competition_id=other.pk, by=organiser)
    assert refused.value.code == "wrong_format"
    response = desk_client.post(
        reverse("events:series_join", args=[series.slug]), {"competition": other.pk}
    )
    assert response.status_code == 400
    assert SeriesCompetition.objects.filter(series=series).count() == 3


@pytest.mark.parametrize(
    "field, value",
    [
        ("best", "0"),
        ("drop_worst", "-1"),
        ("min_events", "5000"),
        ("table", "3,x,1"),
        ("table", "5,-1"),
        ("class_a", "abc"),
        ("kind", "median"),
        ("best", "9" * 30),
        ("name", ""),
    ],
)
def test_a_formula_out_of_range_is_refused_and_what_was_typed_is_kept(
    season, desk_client, field, value
):
    series, _nights, _players = season
    data = {
        "name": "Winter 2026 typed",
        "kind": "placement",
        "drop_worst": "0",
        "min_events": "1",
        "version": str(series.version),
        field: value,
    }
    response = desk_client.post(reverse("events:series_desk", args=[series.slug]), data)
    assert response.status_code == 400
    html = response.content.decode()
    assert 'class="error"' in html
    if field != "name":
        assert "Winter 2026 typed" in html
    assert Series.objects.get(pk=series.pk).name == "Winter 2026"


def test_classes_must_be_ordered(season, desk_client):
    series, _nights, _players = season
    data = {
        "name": "W",
        "kind": "average",
        "drop_worst": "0",
        "min_events": "1",
        "version": str(series.version),
        "class_a": "90",
        "class_b": "100",
    }
    response = desk_client.post(reverse("events:series_desk", args=[series.slug]), data)
    assert response.status_code == 400
    assert Series.objects.get(pk=series.pk).class_a is None


def test_a_stale_edit_is_refused(season, organiser):
    series, _nights, _players = season
    old = series.version
    services.series_update(series=series, by=organiser, expected_version=old, values={"name": "A"})
    with pytest.raises(Stale):
        services.series_update(
            series=series, by=organiser, expected_version=old, values={"name": "B"}
        )
    assert Series.objects.get(pk=series.pk).name == "A"


def test_only_the_series_organisers_change_it(season, outsider):
    series, nights, _players = season
    with pytest.raises(Forbidden):
        services.series_join(series=series, competition_id=nights[0].pk, by=outsider)


def test_a_deleted_event_leaves_the_series_and_its_page_answers(season, client, organiser):
    series, _nights, (a, b, c) = season
    event = EventFactory(
        slug="cancelled", starts_on=dt.date(2026, 2, 1), ends_on=dt.date(2026, 2, 1)
    )
    cancelled = SjoelenFactory(event=event)
    PlayingEntryFactory(competition=cancelled, player=a)
    event.organisers.add(organiser)
    services.series_join(series=series, competition_id=cancelled.pk, by=organiser)
    before = Series.objects.get(pk=series.pk).version
    event.delete()  # no results in it: the admin may delete it
    assert SeriesCompetition.objects.filter(series=series).count() == 3
    assert Series.objects.get(pk=series.pk).version > before  # the page's ETag follows
    response = client.get(reverse("events:series_public", args=[series.slug]))
    assert response.status_code == 200
    assert order(response.content.decode()) == [a.pk, c.pk, b.pk]
    with pytest.raises(Invalid):  # a competition deleted meanwhile: refused, nothing written
        services.series_join(series=series, competition_id=cancelled.pk, by=organiser)


def test_wrong_addresses_are_404(season, client):
    series, _nights, _players = season
    assert client.get("/series/nothing-here/").status_code == 404
    assert (
        client.get(reverse("events:series_player", args=[series.slug, 999999])).status_code == 404
    )
    assert client.get(f"/series/{series.slug}/standings.pdf").status_code == 404


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


def test_the_page_runs_a_constant_number_of_queries(
    organiser, client, django_assert_max_num_queries
):
    players = [PlayerFactory() for _ in range(12)]
    # An organiser of the club (no event of theirs yet): the series is the club's.
    ClubRole.objects.create(club=HostClubFactory(), user=organiser, role="organiser")
    series = services.series_create(
        by=organiser, name="Big", format_key="shuffleboard", kind="totals"
    )
    for day, count in ((1, 4), (2, 12)):
        competition = night(organiser, day, {p: LOW for p in players[:count]})
        services.series_join(series=series, competition_id=competition.pk, by=organiser)
    url = reverse("events:series_public", args=[series.slug])
    with django_assert_max_num_queries(12):
        assert client.get(url).status_code == 200
    with django_assert_max_num_queries(12):
        assert client.get(reverse("events:series_screen", args=[series.slug])).status_code == 200


def test_the_desk_creates_a_series_and_adds_a_night(organiser, desk_client):
    first = night(organiser, 5, {PlayerFactory(): HIGH})
    response = desk_client.post(
        reverse("events:series_desk_list"),
        {
            "name": "Spring",
            "format": "shuffleboard",
            "kind": "totals",
            "drop_worst": "0",
            "min_events": "1",
        },
    )
    series = Series.objects.get(name="Spring")
    assert response.status_code == 302 and response["Location"] == series.get_desk_url()
    assert desk_client.get(series.get_desk_url()).status_code == 200
    joined = desk_client.post(
        reverse("events:series_join", args=[series.slug]), {"competition": first.pk}
    )
    assert joined.status_code == 302
    member = SeriesCompetition.objects.get(series=series)
    desk_client.post(reverse("events:series_member", args=[series.slug, member.pk, "final"]))
    assert SeriesCompetition.objects.get(pk=member.pk).is_final
    desk_client.post(reverse("events:series_member", args=[series.slug, member.pk, "remove"]))
    assert not SeriesCompetition.objects.filter(series=series).exists()


def test_the_admin_checks_the_formula_and_the_format(season, admin_client):
    series, nights, _players = season
    url = reverse("admin:events_series_change", args=[series.pk])
    assert admin_client.get(url).status_code == 200
    data = {
        "name": "Winter",
        "slug": series.slug,
        "kind": "placement",
        "table": "3,x",
        "drop_worst": "0",
        "min_events": "1",
        "final_counts": "on",
        "is_public": "on",
        "members-TOTAL_FORMS": "0",
        "members-INITIAL_FORMS": "0",
    }
    response = admin_client.post(url, data)
    assert response.status_code == 200
    assert "whole numbers separated by commas" in response.content.decode()
    assert Series.objects.get(pk=series.pk).table == ""


def test_the_cached_version_follows_a_correction_on_every_cache(
    season, client, organiser, live_cache, committed
):
    """Versions in the shared cache (Redis, or one process's memory): a correction in one of the
    series' competitions raises the series' stamp after commit, so the next poll renders."""
    series, nights, (a, b, c) = season
    url = reverse("events:series_public", args=[series.slug])
    first = client.get(url)
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    turn = Turn.objects.get(entry__competition=nights[2], entry__player=a)
    with committed():
        sjoelen.turn_correct(turn=turn, revision=turn.revision, counts=NIL, entered_by=organiser)
    again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200
    assert order(again.content.decode()) == [c.pk, b.pk, a.pk]


def test_each_class_has_its_own_standings_on_the_page(season, organiser, client):
    """Average 316 / 3 puts A in class A; C and B (284 / 3 each) in class B, C first on the
    latest night: class A is A alone (1), class B is C 1, B 2."""
    series, _nights, (a, b, c) = season
    services.series_update(
        series=series,
        by=organiser,
        expected_version=Series.objects.get(pk=series.pk).version,
        values={"kind": "average", "best": None, "class_a": 100, "class_b": 90},
    )
    html = client.get(reverse("events:series_public", args=[series.slug])).content.decode()
    sections = dict(re.findall(r'data-class="(\w)">(.*?)</table>', html, re.S))
    assert set(sections) == {"A", "B"}

    def rows(section: str) -> list[tuple[str, str]]:
        return re.findall(r'<td class="num">(\d+=?)</td><td><a [^>]*>([^<]+)</a>', section)

    assert rows(sections["A"]) == [("1", a.public_name)]
    assert rows(sections["B"]) == [("1", c.public_name), ("2", b.public_name)]


def test_which_results_counted_loads_beside_each_row(season, client):
    series, _nights, (_a, b, _c) = season
    page = client.get(reverse("events:series_public", args=[series.slug])).content.decode()
    why = reverse("events:series_why", args=[series.slug, b.pk])
    assert f'hx-get="{why}"' in page
    fragment = client.get(why, HTTP_HX_REQUEST="true")
    assert fragment.status_code == 200
    items = re.findall(r'<li class="(used|unused)">', fragment.content.decode())
    assert items == ["unused", "used", "used"]  # night 3 beyond the best 2, nights 2 and 1
    whole = client.get(why)
    assert whole.status_code == 200 and "<html" in whole.content.decode()
    assert client.get(reverse("events:series_why", args=[series.slug, 999999])).status_code == 404


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


def test_the_players_page_shows_the_corrections_of_their_results(season, client, organiser):
    """A's 148 on night 3 corrected to 20: A's series page says so; B's, not corrected, not."""
    series, nights, (a, b, _c) = season
    a_url = reverse("events:series_player", args=[series.slug, a.pk])
    assert "data-correction=" not in client.get(a_url).content.decode()
    turn = Turn.objects.get(entry__competition=nights[2], entry__player=a)
    sjoelen.turn_correct(turn=turn, revision=turn.revision, counts=NIL, entered_by=organiser)
    (correction,) = Correction.objects.filter(entry__player=a)
    html = client.get(a_url).content.decode()
    assert f'data-correction="{correction.pk}"' in html
    assert "148 → 20" in html and "Night 3" in html
    b_page = client.get(reverse("events:series_player", args=[series.slug, b.pk]))
    assert "data-correction=" not in b_page.content.decode()
