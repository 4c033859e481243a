"""/healthz and /readyz: what a load balancer asks, over plain HTTP, without a redirect."""

from __future__ import annotations

import json

import pytest


def test_healthz_answers_ok_without_the_database(client, db, django_assert_num_queries):
    with django_assert_num_queries(0):
        response = client.get("/healthz")
    assert response.status_code == 200
    assert response.content == b"ok"
    assert response["Content-Type"].startswith("text/plain")
    assert not response.cookies  # no session, no CSRF cookie
    assert "no-cache" in response["Cache-Control"]


@pytest.mark.django_db
def test_readyz_reports_each_check(client):
    response = client.get("/readyz")
    assert response.status_code == 200
    assert json.loads(response.content) == {
        "ready": True,
        "database": "ok",
        "migrations": "ok",
        "cache": "local",
    }


@pytest.mark.django_db
def test_readyz_stays_ready_with_the_cache_down_and_says_so(client, settings):
    settings.CACHES = {
        "default": {
            "BACKEND": "events.common.cache.OptionalRedisCache",
            "LOCATION": "redis://127.0.0.1:9/0",  # nothing listens there
        }
    }
    response = client.get("/readyz")
    body = json.loads(response.content)
    assert response.status_code == 200
    assert body["ready"] is True and body["cache"] == "down" and body["note"]


@pytest.mark.django_db
def test_health_checks_are_not_redirected_to_https(client, settings, competition):
    settings.SECURE_SSL_REDIRECT = True
    assert client.get("/healthz").status_code == 200
    assert client.get("/readyz").status_code == 200
    assert client.get(competition.get_absolute_url()).status_code == 301


def test_health_checks_refuse_posts(client):
    assert client.post("/healthz").status_code == 405
