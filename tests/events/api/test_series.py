"""The read API's series and rating lists (events/api/series.py): public series, their
competitions and standings with the version ETag, and a format's rating list."""

from __future__ import annotations

import pytest

from events.series import services as series_services
from tests.support.api import WORLDS, api_path, get
from tests.support.factories import EventFactory

pytestmark = pytest.mark.django_db


def test_series_and_their_standings(client, organiser):
    event = EventFactory(slug="night-1", organisers=[organiser])
    competition = WORLDS["shuffleboard"](event, 4)
    series = series_services.series_create(
        by=organiser, name="Season", format_key="shuffleboard", kind="placement"
    )
    series_services.series_join(series=series, competition_id=competition.pk, by=organiser)
    listed = get(client, "/api/v1/series").json()["items"]
    assert [s["slug"] for s in listed] == [series.slug]
    detail = get(client, f"/api/v1/series/{series.slug}").json()
    assert detail["competitions"][0]["links"]["self"] == api_path(competition)
    standings = get(client, detail["series"]["links"]["standings"])
    assert standings.status_code == 200
    assert [row["place"] for row in standings.json()["items"]] == [1, 2, 3, 4]
    etag = standings["ETag"]
    assert (
        get(client, f"/api/v1/series/{series.slug}/standings", If_None_Match=etag).status_code
        == 304
    )


def test_the_blokus_rating_list(client, event):
    WORLDS["blokus"](event, 8)
    index = get(client, "/api/v1/").json()
    assert index["ratings"] == {"blokus": "/api/v1/ratings/blokus"}
    ratings = get(client, "/api/v1/ratings/blokus")
    assert ratings.status_code == 200
    items = ratings.json()["items"]
    assert items and {"place", "player", "name", "rating", "games"} <= set(items[0])
