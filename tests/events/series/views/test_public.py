"""The public series pages (``events.series.views.public``) through real requests: a correction at
the desk followed by the page and its ETag, wrong addresses, the query budget, classes, which
results counted and the player's page."""

from __future__ import annotations

import re

from django.urls import reverse

from events.models import ClubRole, Correction
from events.series import services
from events.series.models import Series
from shuffleboard import services as sjoelen
from shuffleboard.models import Turn
from tests.support.factories import HostClubFactory, PlayerFactory
from tests.support.series import LOW, NIL, night, order


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


def test_wrong_addresses_are_404(season, client):
    series, _nights, _players = season
    assert client.get("/series/nothing-here/").status_code == 404
    assert (
        client.get(reverse("events:series_player", args=[series.slug, 999999])).status_code == 404
    )
    assert client.get(f"/series/{series.slug}/standings.pdf").status_code == 404


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
