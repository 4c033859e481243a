"""The widget and the overlays: live pages (ETag, 304), constant queries, what they show."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.support import blokus as b, shuffleboard as sj
from tests.support.factories import EntryFactory

pytestmark = pytest.mark.django_db

PAGES = ["widget", "overlay_lower_third", "overlay_clock", "overlay_ticker"]


def address(name, competition, query=""):
    return reverse(f"events:{name}", args=[competition.event.slug, competition.slug]) + query


@pytest.fixture
def seated(event):
    """A Blokus competition with a round of eight drawn: two tables."""
    competition = b.small(event, slug="side")
    session = competition.sessions.get(number=1)
    round_ = b.seated_round(competition, session, 8)
    return competition, round_


@pytest.mark.parametrize("name", PAGES)
def test_a_current_poll_is_answered_304_and_a_write_renders_again(name, seated):
    competition, _round = seated
    client = Client()
    first = client.get(address(name, competition))
    assert first.status_code == 200 and first["ETag"]
    assert "public" in first["Cache-Control"]
    again = client.get(address(name, competition), HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    EntryFactory(competition=competition)  # a write that bumps the version
    from events.services import competition_touch

    competition_touch(competition)
    after = client.get(address(name, competition), HTTP_IF_NONE_MATCH=first["ETag"])
    assert after.status_code == 200 and after["ETag"] != first["ETag"]


@pytest.mark.parametrize("name", PAGES)
def test_the_body_is_the_same_for_every_visitor_and_sets_no_cookie(name, seated):
    competition, _round = seated
    one = Client().get(address(name, competition))
    two = Client().get(address(name, competition))
    assert one.content == two.content
    assert not one.cookies and b"csrfmiddlewaretoken" not in one.content


@pytest.mark.parametrize("name", PAGES)
def test_queries_do_not_grow_with_the_field(name, event, django_assert_max_num_queries):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    # The first: what a process reads once (the club's style, the format's templates) aside.
    for players, slug in ((4, "warm"), (4, "four"), (12, "twelve")):
        competition = b.small(event, slug=slug)
        b.seated_round(competition, competition.sessions.get(number=1), players, prefix=slug)
        with CaptureQueriesContext(connection) as captured:
            assert Client().get(address(name, competition)).status_code == 200
        counts.append(len(captured))
    assert counts[1] == counts[2], counts
    with django_assert_max_num_queries(12):
        Client().get(address(name, competition, "?x=1"))


def test_a_304_costs_one_query_at_most(seated, django_assert_max_num_queries):
    competition, _round = seated
    client = Client()
    for name in PAGES:
        etag = client.get(address(name, competition))["ETag"]
        with django_assert_max_num_queries(1):  # the version, where the cache is not shared
            assert (
                client.get(address(name, competition), HTTP_IF_NONE_MATCH=etag).status_code == 304
            )


def test_the_lower_third_names_table_one_or_the_table_chosen(seated):
    competition, round_ = seated
    games = list(round_.games.order_by("number"))
    page = Client().get(address("overlay_lower_third", competition)).content.decode()
    first = [s.entry.player.public_name for s in games[0].seats.order_by("position")]
    assert "Qualifying session 1, table 1" in page or "table 1" in page
    assert " - ".join(first) in page
    chosen = Client().get(address("overlay_lower_third", competition, "?table=2"))
    second = [s.entry.player.public_name for s in games[1].seats.order_by("position")]
    assert " - ".join(second) in chosen.content.decode()
    hostile = Client().get(address("overlay_lower_third", competition, "?table=<script>"))
    assert hostile.status_code == 200 and b"<script>" not in hostile.content


def test_the_ticker_and_the_widget_show_the_standings(event):
    competition = sj.sjoelen_in(event)
    sj.scores_entered(sj.four_playing(competition))
    widget = Client().get(address("widget", competition)).content.decode()
    assert "Õie Sööt" in widget and "264" in widget and 'target="_blank"' in widget
    assert '<th scope="col" class="num">Total</th>' in widget
    ticker = Client().get(address("overlay_ticker", competition)).content.decode()
    assert "Õie Sööt" in ticker and "Mari Kask" in ticker


def test_an_overlay_is_a_transparent_page_of_its_own(seated):
    competition, _round = seated
    page = Client().get(address("overlay_ticker", competition)).content.decode()
    assert 'class="overlay-html"' in page and "css/overlay" in page
    assert "site-header" not in page  # no site chrome over the camera
    assert 'hx-trigger="every 10s"' in page  # follows the version like every public page
