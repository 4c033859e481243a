"""The read API's answers (events/api/caching.py): the headers of every answer, errors as JSON,
an ETag per version and encoding, bodies checked against their schema, the unversioned ETag
of the bytes and its 304."""

from __future__ import annotations

import datetime as dt
import gzip
import json

import pytest
from django.http import HttpResponse
from django.test import RequestFactory
from pydantic import BaseModel

from events import versions
from events.api import caching

CREATED = dt.datetime(2026, 5, 1, 12, 0, tzinfo=dt.UTC)


class Item(BaseModel):
    name: str
    points: int


@pytest.fixture
def rf():
    return RequestFactory()


def test_every_answer_is_revalidated_varies_by_encoding_and_names_the_licence(settings):
    settings.API_DATA_LICENCE_URL = "https://creativecommons.org/licenses/by/4.0/"
    answer = caching.finish(HttpResponse("{}"), '"e1"')
    assert "no-cache" in answer["Cache-Control"]
    assert "Accept-Encoding" in answer["Vary"]
    assert answer["Link"] == '<https://creativecommons.org/licenses/by/4.0/>; rel="license"'
    assert answer["ETag"] == '"e1"'
    # No ETag on an error, whatever is asked.
    assert "ETag" not in caching.finish(HttpResponse(status=404), '"e1"')


def test_an_error_is_json_with_its_message_and_code():
    answer = caching.error_response(caching.not_found("No such series."))
    assert answer.status_code == 404
    assert answer["Content-Type"] == "application/json"
    assert json.loads(answer.content) == {"error": "No such series.", "code": "not_found"}


def test_the_meta_credits_the_organisers_unless_told_whom(settings):
    settings.SITE_NAME = "Turniere"
    assert caching.meta()["attribution"] == "The event organisers, via Turniere"
    assert caching.meta("Tartu club")["attribution"] == "Tartu club"
    assert set(caching.meta()) == {"licence", "licence_url", "attribution"}


def test_the_etag_follows_the_version_and_the_encoding(rf):
    stamp = versions.stamp_of(7, CREATED, 3)
    plain = caching.etag_of("competition", stamp, rf.get("/"))
    zipped = caching.etag_of("competition", stamp, rf.get("/", HTTP_ACCEPT_ENCODING="gzip"))
    assert plain.startswith('"api-competition-7.3.') and not plain.endswith('-z"')
    assert zipped == plain[:-1] + '-z"'
    newer = caching.etag_of("competition", versions.stamp_of(7, CREATED, 4), rf.get("/"))
    assert newer != plain


def test_a_body_key_is_per_host_and_path_and_none_for_a_path_too_long(rf, settings):
    settings.ALLOWED_HOSTS = ["testserver", "other.example"]
    one = caching.body_key(rf.get("/api/v1/events/a"), "event")
    assert one == caching.body_key(rf.get("/api/v1/events/a"), "event")
    assert one != caching.body_key(rf.get("/api/v1/events/b"), "event")
    assert one != caching.body_key(rf.get("/api/v1/events/a", HTTP_HOST="other.example"), "event")
    too_long = "/api/v1/events/" + "x" * (caching.MAX_CACHED_PATH + 1)
    assert caching.body_key(rf.get(too_long), "event") is None


def test_a_body_is_checked_against_its_schema_as_compact_json():
    assert caching.encode(Item, {"name": "Åsa", "points": 3}) == (
        '{"name":"Åsa","points":3}'.encode()
    )
    with pytest.raises(ValueError):
        caching.encode(Item, {"name": "Åsa", "points": "three"})


def test_a_stored_body_is_sent_gzip_or_inflated(rf):
    packed = gzip.compress(b'{"a":1}')
    zipped = caching.serve(rf.get("/", HTTP_ACCEPT_ENCODING="gzip"), packed, '"e"')
    assert zipped["Content-Encoding"] == "gzip" and zipped.content == packed
    plain = caching.serve(rf.get("/"), packed, '"e"')
    assert "Content-Encoding" not in plain and plain.content == b'{"a":1}'


def test_an_unversioned_answer_has_the_etag_of_its_bytes_and_answers_304(rf):
    def build():
        return {"name": "Åsa", "points": 3}

    first = caching.unversioned(rf.get("/"), Item, build)
    assert first.status_code == 200 and first["ETag"].startswith('"api-h-')
    again = caching.unversioned(rf.get("/", HTTP_IF_NONE_MATCH=first["ETag"]), Item, build)
    assert again.status_code == 304

    def missing():
        raise caching.not_found()

    assert caching.unversioned(rf.get("/"), Item, missing).status_code == 404
