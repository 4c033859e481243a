"""The site's own error pages: translated, with the way to a new link on a link's address."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.support.factories import CompetitionFactory, EventFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_a_missing_page_is_the_sites_own_in_the_readers_language(client):
    response = client.get("/no/such/page/", HTTP_ACCEPT_LANGUAGE="sv")
    assert response.status_code == 404
    html = response.content.decode()
    assert '<html lang="sv">' in html
    assert "Det finns ingen sida på den här adressen." in html
    assert "Not Found" not in html
    assert "data-link-hint" not in html


@pytest.mark.parametrize(
    ("path", "words"),
    [
        ("/sign-up/not-a-token/", "ask for a new one on the event"),
        ("/sign-up/not-a-token/my-data.json", "ask for a new one on the event"),
        ("/notifications/stop/broken/", "Open the link in your newest message"),
    ],
)
def test_a_broken_link_says_how_to_get_a_new_one(client, path, words):
    response = client.get(path, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 404
    html = response.content.decode()
    assert "This link does not open anything" in html
    assert words in html
    assert response["Referrer-Policy"] in ("no-referrer", "strict-origin")


def test_a_broken_link_in_dutch(client):
    response = client.get("/sign-up/not-a-token/", HTTP_ACCEPT_LANGUAGE="nl")
    assert response.status_code == 404
    assert "aanmeldlink" in response.content.decode()


def test_a_desk_page_of_another_organisers_event_is_refused_in_estonian(client):
    event = EventFactory(slug="tartu", organisers=[UserFactory(username="owner")])
    CompetitionFactory(event=event, slug="sjoelen", format="shuffleboard")
    client.force_login(UserFactory(username="stranger"))
    response = client.get("/desk/tartu/sjoelen/", HTTP_ACCEPT_LANGUAGE="et")
    assert response.status_code in (403, 404)
    html = response.content.decode()
    assert '<html lang="et">' in html
    assert "Forbidden" not in html and "Not Found" not in html


def test_a_refused_form_token_is_the_sites_own_page(client):
    strict = Client(enforce_csrf_checks=True)
    response = strict.post(
        "/accounts/login/", {"username": "a", "password": "b"}, HTTP_ACCEPT_LANGUAGE="sv"
    )
    assert response.status_code == 403
    html = response.content.decode()
    assert "CSRF verification failed" not in html
    assert "Formuläret" in html


@pytest.mark.urls("tests.events.common.error_urls")
def test_a_server_error_is_the_sites_own_page(client):
    client.raise_request_exception = False
    response = client.get("/fails/", HTTP_ACCEPT_LANGUAGE="et")
    assert response.status_code == 500
    html = response.content.decode()
    assert '<html lang="et">' in html
    assert "Server Error" not in html
    assert "Error 500" not in html  # translated too


def test_the_api_keeps_its_json_shape(client):
    response = client.get("/api/v1/no-such-thing", HTTP_ACCEPT_LANGUAGE="sv")
    assert response.status_code == 404
    body = response.json()
    assert set(body) >= {"error", "code"}
