"""The read API's edge (``events.api.middleware``): CORS for GET, the preflight, read-only,
English, no cookie, and the security headers of the site (the docs page under the CSP)."""

from __future__ import annotations

import re

import pytest
from django.contrib.staticfiles import finders

from tests.support.api import WORLDS, api_path
from tests.support.factories import EventFactory

pytestmark = pytest.mark.django_db


def test_cors_for_every_origin_without_credentials(client, event):
    competition = WORLDS["shuffleboard"](event, 4)
    response = client.get(
        api_path(competition, "standings"), headers={"Origin": "https://club.example"}
    )
    assert response["Access-Control-Allow-Origin"] == "*"
    assert "Access-Control-Allow-Credentials" not in response
    assert "ETag" in response["Access-Control-Expose-Headers"]
    assert response["Access-Control-Allow-Methods"] == "GET, HEAD, OPTIONS"


def test_a_preflight_is_answered_without_the_view(client, django_assert_max_num_queries):
    with django_assert_max_num_queries(0):
        response = client.options(
            "/api/v1/events",
            headers={
                "Origin": "https://club.example",
                "Access-Control-Request-Method": "GET",
                "Access-Control-Request-Headers": "if-none-match",
            },
        )
    assert response.status_code == 204
    assert response["Access-Control-Allow-Origin"] == "*"
    assert "If-None-Match" in response["Access-Control-Allow-Headers"]
    assert response["Access-Control-Max-Age"] == "86400"


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
def test_the_api_is_read_only(client, event, method):
    response = getattr(client, method)("/api/v1/events", data="{}", content_type="application/json")
    assert response.status_code == 405
    assert response.json()["code"] == "method_not_allowed"
    assert response["Allow"] == "GET, HEAD, OPTIONS"


def test_head_answers_like_get_without_a_body(client, event):
    competition = WORLDS["shuffleboard"](event, 4)
    response = client.head(api_path(competition, "standings"))
    assert response.status_code == 200 and response.content == b"" and response["ETag"]


def test_no_cookie_is_set_and_answers_are_english(client, event):
    competition = WORLDS["shuffleboard"](event, 4)
    for path in (api_path(competition), "/api/v1/events", "/api/v1/events/nope", "/api/v1/docs"):
        response = client.get(path, headers={"Accept-Language": "sv"})
        assert not response.cookies, path
        assert response["Content-Language"] == "en", path
        # a shared cache may keep one copy for everyone: the answer varies with no cookie
        assert "Cookie" not in response.get("Vary", ""), path
    message = client.get("/api/v1/events/nope", headers={"Accept-Language": "sv"}).json()
    assert message["error"] == "No public event at this address."


def test_the_api_may_be_kept_by_no_one_but_revalidated(client, event):
    response = client.get("/api/v1/events")
    assert response["Cache-Control"] == "no-cache"  # not the private pages' no-store
    assert response["Content-Security-Policy"]


def test_the_openapi_document_states_the_licence(client):
    document = client.get("/api/v1/openapi.json").json()
    assert document["openapi"].startswith("3.")
    assert document["info"]["license"] == {
        "name": "CC BY 4.0",
        "url": "https://creativecommons.org/licenses/by/4.0/",
    }
    paths = document["paths"]
    assert "/api/v1/events/{event_slug}/competitions/{competition_slug}/standings" in paths
    assert all(set(operations) == {"get"} for operations in paths.values())


def test_the_docs_page_loads_its_scripts_from_this_site_under_the_csp(client):
    response = client.get("/api/v1/docs")
    assert response.status_code == 200
    html = response.content.decode()
    assert "script-src 'self'" in response["Content-Security-Policy"]
    sources = re.findall(r'<(?:script|link)[^>]+(?:src|href)="([^"]+)"', html)
    assert sources and all(src.startswith("/static/ninja/") for src in sources), sources
    # no inline script: the settings travel as JSON data, read by swagger-ui-init.js
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", html, re.S)
    assert all("src=" in attrs or 'type="application/json"' in attrs for attrs, _ in scripts)
    for src in sources:  # served by whitenoise from the collected static files
        assert finders.find(src.removeprefix("/static/")), src


def test_the_docs_page_states_its_language_and_fits_a_phone(client):
    html = client.get("/api/v1/docs").content.decode()
    assert '<html lang="en">' in html, html[:300]  # English, as every answer of the API
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
    assert 'id="swagger-ui"' in html and 'id="swagger-settings"' in html  # still Swagger UI


def test_if_none_match_any_tells_nothing_about_an_unlisted_event(client, event):
    EventFactory(name="Unlisted", slug="unlisted", is_public=False)
    for path, status in (
        ("/api/v1/events/unlisted", 404),
        ("/api/v1/events/unknown", 404),
        (f"/api/v1/events/{event.slug}", 200),  # "*" is no ETag: the answer itself
    ):
        assert client.get(path, headers={"If-None-Match": "*"}).status_code == status, path
