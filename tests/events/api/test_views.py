"""The read API's endpoints (``events.api.views``) for every format: what they answer, 404 for
what is not public, the version ETag and 304, pagination, the query counts."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings as hypothesis_settings, strategies as st

from events.api.contract import ReadApi
from events.formats import part
from events.models import Competition, Event
from events.services import competition_touch, editing
from tests.support.api import WORLDS, api_path, get
from tests.support.factories import CompetitionFactory, EventFactory

pytestmark = pytest.mark.django_db
FORMATS = sorted(WORLDS)
FORMAT_PARTS = ("standings", "results", "sessions")  # what a format's read API answers


def has_read_api(key: str) -> bool:
    return part(key, ReadApi) is not None


@pytest.fixture
def fuzz_world(event):
    """A sjoelen competition of 4 in the public test event, for the fuzz to find."""
    return WORLDS["shuffleboard"](event, 4)


@pytest.mark.parametrize("key", FORMATS)
def test_every_endpoint_of_a_competition_answers_for_each_format(client, event, key):
    competition = WORLDS[key](event, 4)
    detail = get(client, api_path(competition)).json()
    assert detail["competition"]["format"] == key
    assert detail["meta"]["licence"] == "CC BY 4.0"
    links = detail["competition"]["links"]
    # A format without a read API (FormatHooks.read_api) has entries only: the rest says 404.
    names = ("entries", *FORMAT_PARTS) if has_read_api(key) else ("entries",)
    assert set(links) >= {"self", "page", *names}
    for missing in set(FORMAT_PARTS) - set(names):
        assert missing not in links
        assert get(client, api_path(competition, missing)).status_code == 404, missing
    for name in names:
        response = get(client, links[name])
        assert response.status_code == 200, (name, response.content)
        assert response["Content-Type"] == "application/json"
        assert response["Link"] == '<https://creativecommons.org/licenses/by/4.0/>; rel="license"'
        body = response.json()
        assert body["competition"]["slug"] == competition.slug
        if name != "sessions" or key != "shuffleboard":
            assert body["items"], name
    if not has_read_api(key):
        return
    standings = get(client, links["standings"]).json()["items"]
    assert all({"entry", "name", "place"} <= set(row) for row in standings)
    for row in get(client, links["sessions"]).json()["items"]:
        if row["links"]:
            session = get(client, row["links"]["self"])
            assert session.status_code == 200
            assert session.json()["session"]["number"] == row["number"]


def test_the_standings_path_other_code_relies_on(client, event):
    competition = WORLDS["shuffleboard"](event, 4)
    path = f"/api/v1/events/{event.slug}/competitions/{competition.slug}/standings"
    response = get(client, path)
    assert response.status_code == 200
    assert [row["place"] for row in response.json()["items"]] == [1, 2, 3, 4]


def test_the_event_list_shows_public_events_only_newest_first(client):
    old = EventFactory(slug="old-one", is_public=True)
    hidden = EventFactory(slug="hidden-one", is_public=False)
    new = EventFactory(slug="new-one", is_public=True)
    items = get(client, "/api/v1/events").json()["items"]
    slugs = [item["slug"] for item in items]
    assert slugs.index(new.slug) < slugs.index(old.slug)
    assert hidden.slug not in slugs


def test_a_non_public_or_unknown_address_is_a_404_in_json(client, event):
    competition = WORLDS["shuffleboard"](event, 4)
    hidden_event = EventFactory(slug="unlisted", is_public=False)
    hidden = CompetitionFactory(event=hidden_event, slug="secret")
    paths = [
        f"/api/v1/events/{hidden_event.slug}",
        f"/api/v1/events/{hidden_event.slug}/competitions",
        api_path(hidden),
        api_path(hidden, "standings"),
        api_path(hidden, "entries"),
        api_path(hidden, "results"),
        "/api/v1/events/no-such-event",
        f"/api/v1/events/{event.slug}/competitions/no-such",
        api_path(competition, "sessions/1"),  # sjoelen has no sessions
        "/api/v1/series/no-such",
        "/api/v1/ratings/shuffleboard",  # sjoelen keeps no rating
        "/api/v1/ratings/no-such",
        "/api/v1/no-such",
    ]
    for path in paths:
        response = get(client, path)
        assert response.status_code == 404, path
        assert response["Content-Type"] == "application/json", path
        assert response.json()["error"], path


def test_an_event_turned_private_answers_404_at_once(client, event, organiser):
    competition = WORLDS["shuffleboard"](event, 4)
    first = get(client, api_path(competition, "standings"))
    assert first.status_code == 200
    event.refresh_from_db()
    expected = editing.signature(event, editing.EVENT_FIELDS)
    editing.event_edit(event=event, expected=expected, values={"is_public": False})
    assert get(client, api_path(competition, "standings")).status_code == 404
    again = get(client, api_path(competition, "standings"), If_None_Match=first["ETag"])
    assert again.status_code == 404


@pytest.mark.parametrize("key", FORMATS)
def test_a_poll_with_the_etag_is_a_304_until_a_write(client, event, key):
    competition = WORLDS[key](event, 4)
    path = api_path(competition, "standings" if has_read_api(key) else "entries")
    first = get(client, path)
    etag = first["ETag"]
    assert etag and first["Cache-Control"] == "no-cache"
    not_modified = get(client, path, If_None_Match=etag)
    assert not_modified.status_code == 304 and not_modified["ETag"] == etag
    assert not_modified.content == b""
    competition_touch(Competition.objects.get(pk=competition.pk))
    changed = get(client, path, If_None_Match=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag


def test_a_304_and_a_stored_body_cost_no_query_when_the_stamp_is_cached(
    client, event, settings, django_assert_max_num_queries
):
    settings.LIVE_VERSIONS_IN_CACHE = True
    settings.API_RATE_LIMIT = 0  # the rate limit's own cost is measured on its own
    competition = WORLDS["shuffleboard"](event, 4)
    path = api_path(competition, "standings")
    first = get(client, path, Accept_Encoding="gzip")
    assert first["Content-Encoding"] == "gzip"
    with django_assert_max_num_queries(0):
        assert (
            get(client, path, If_None_Match=first["ETag"], Accept_Encoding="gzip").status_code
            == 304
        )
    with django_assert_max_num_queries(0):
        stored = get(client, path, Accept_Encoding="gzip")
    assert stored.status_code == 200 and stored.content == first.content
    with django_assert_max_num_queries(0):
        plain = get(client, path)  # inflated for a client that takes no gzip
    assert "Content-Encoding" not in plain and plain.json()["items"][0]["place"] == 1


def test_the_event_and_series_answers_follow_their_versions(client, event):
    competition = WORLDS["shuffleboard"](event, 4)
    path = f"/api/v1/events/{event.slug}"
    etag = get(client, path)["ETag"]
    assert get(client, path, If_None_Match=etag).status_code == 304
    competition_touch(Competition.objects.get(pk=competition.pk))
    assert get(client, path, If_None_Match=etag).status_code == 200


def test_the_unversioned_lists_answer_304_for_the_same_bytes(client, event):
    first = get(client, "/api/v1/events")
    assert get(client, "/api/v1/events", If_None_Match=first["ETag"]).status_code == 304
    EventFactory(slug="another")
    assert get(client, "/api/v1/events", If_None_Match=first["ETag"]).status_code == 200


def walk(client, path: str, limit: int) -> list[dict]:
    rows, seen_pages = [], 0
    url = f"{path}?limit={limit}"
    while url:
        body = get(client, url).json()
        rows += body["items"]
        assert body["next"] is None or body["links"]["next"]
        url = body["links"]["next"]
        seen_pages += 1
        assert seen_pages < 1000
    return rows


@pytest.mark.parametrize("key", FORMATS)
def test_a_walk_through_the_pages_returns_every_row_once(client, event, key):
    competition = WORLDS[key](event, 13)
    walks = (("entries", 5), ("results", 7)) if has_read_api(key) else (("entries", 5),)
    for name, limit in walks:
        path = api_path(competition, name)
        walked = walk(client, path, limit)
        whole = get(client, f"{path}?limit=200").json()
        assert whole["next"] is None
        assert walked == whole["items"], name
    entries = [row["entry"] for row in walk(client, api_path(competition, "entries"), 3)]
    assert len(entries) == len(set(entries)) == 13


def test_the_event_list_walks_every_public_event_once(client):
    made = {EventFactory(slug=f"walk-{n}", is_public=True).slug for n in range(11)}
    EventFactory(slug="walk-hidden", is_public=False)
    slugs = [row["slug"] for row in walk(client, "/api/v1/events", 4)]
    assert len(slugs) == len(set(slugs)) and made <= set(slugs)
    assert "walk-hidden" not in slugs


def test_a_results_walk_across_a_write_is_told_to_start_again(client, event):
    competition = WORLDS["shuffleboard"](event, 6)
    first = get(client, api_path(competition, "results") + "?limit=2").json()
    competition_touch(Competition.objects.get(pk=competition.pk))
    stale = get(client, first["links"]["next"])
    assert stale.status_code == 409
    assert "start again" in stale.json()["error"]


@pytest.mark.parametrize(
    "query",
    ["cursor=abc", "cursor=", "cursor=eyJrIjoieCJ9", "limit=0", "limit=201", "limit=x", "limit=-1"],
)
def test_a_bad_cursor_or_limit_is_a_400_that_says_why(client, event, query):
    competition = WORLDS["shuffleboard"](event, 4)
    for path in (
        api_path(competition, "results"),
        api_path(competition, "entries"),
        "/api/v1/events",
    ):
        response = get(client, f"{path}?{query}")
        if query == "cursor=":
            assert response.status_code == 200  # no cursor: the first page
            continue
        assert response.status_code == 400, (path, query)
        body = response.json()
        assert body["code"] in {"invalid_cursor", "invalid_limit", "invalid_parameter"}
        assert "cursor" in body["error"] or "limit" in body["error"]


def test_another_lists_cursor_is_refused(client, event):
    competition = WORLDS["shuffleboard"](event, 8)
    entries_next = get(client, api_path(competition, "entries") + "?limit=2").json()["next"]
    response = get(client, api_path(competition, "results") + f"?cursor={entries_next}")
    assert response.status_code == 400 and response.json()["code"] == "invalid_cursor"


@pytest.mark.parametrize("players", [4, 40])
@pytest.mark.parametrize("key", FORMATS)
def test_each_answer_costs_the_same_queries_for_4_or_40_players(
    client, event, key, players, settings, django_assert_max_num_queries
):
    settings.API_RATE_LIMIT = 0
    competition = WORLDS[key](event, players)
    Event.objects.filter(pk=event.pk).update(is_public=True)
    # the stamp (1), the competition (1), then the format's selectors
    budgets = {"": 4, "entries": 3, "standings": 6, "results": 5, "sessions": 5, "sessions/1": 8}
    for tail, budget in budgets.items():
        cache.clear()  # a first render each time: no stored body
        with django_assert_max_num_queries(budget):
            response = get(client, api_path(competition, tail))
        assert response.status_code in (200, 404), tail
    cache.clear()
    with django_assert_max_num_queries(3):
        assert get(client, f"/api/v1/events/{event.slug}").status_code == 200
    with django_assert_max_num_queries(1):
        assert get(client, "/api/v1/events").status_code == 200


def test_the_query_counts_do_not_grow(client, event, settings):
    """The same count, query for query, for 4 and 40 players of each format."""
    settings.API_RATE_LIMIT = 0
    counts = {}
    for players in (4, 40):
        here = EventFactory(slug=f"grow-{players}")
        for key, world in WORLDS.items():
            competition = world(here, players)
            for tail in ("", "entries", "standings", "results", "sessions"):
                cache.clear()
                with CaptureQueriesContext(connection) as queries:
                    get(client, api_path(competition, tail))
                counts.setdefault((key, tail), []).append(len(queries))
    grown = {k: v for k, v in counts.items() if v[0] != v[1]}
    assert not grown, grown


# --- hostile parameters: a clear 4xx in JSON, never a 500 ------------------------------------

PATHS = [
    "/api/v1/events",
    "/api/v1/events/{e}",
    "/api/v1/events/{e}/competitions",
    "/api/v1/events/{e}/competitions/{c}",
    "/api/v1/events/{e}/competitions/{c}/entries",
    "/api/v1/events/{e}/competitions/{c}/standings",
    "/api/v1/events/{e}/competitions/{c}/results",
    "/api/v1/events/{e}/competitions/{c}/sessions",
    "/api/v1/events/{e}/competitions/{c}/sessions/{n}",
    "/api/v1/series/{s}",
    "/api/v1/series/{s}/standings",
    "/api/v1/ratings/{s}",
]
SEGMENT = st.one_of(
    st.sampled_from(["lincon-2026", "sjoelen", "blokus", "1", "0", "-1", "9" * 20, "", "%00"]),
    st.text(max_size=40),
)
VALUE = st.one_of(
    st.sampled_from(["", "0", "-1", "201", "1e3", "2.5", "null", "eyJ0Ijoi", "99999999999999"]),
    st.text(max_size=300),
)


@hypothesis_settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    path=st.sampled_from(PATHS),
    e=SEGMENT,
    c=SEGMENT,
    n=SEGMENT,
    s=SEGMENT,
    query=st.dictionaries(st.sampled_from(["cursor", "limit", "series", "x"]), VALUE, max_size=3),
)
def test_hostile_ids_cursors_and_filters_are_a_clear_4xx(
    client, fuzz_world, path, e, c, n, s, query
):
    address = path.format(
        e=quote(e, safe=""), c=quote(c, safe=""), n=quote(n, safe=""), s=quote(s, safe="")
    )
    response = client.get(address, query)
    assert response.status_code in (200, 400, 404, 409), (address, query, response.content)
    body = response.json()
    if response.status_code != 200:
        assert body["error"] and body["code"], body
