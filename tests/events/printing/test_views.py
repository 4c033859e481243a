"""The kit's downloads: who may fetch them, the PDF's headers and name, the language asked for."""

from __future__ import annotations

import pytest
from django.urls import reverse


def download_url(competition, key):
    return reverse("events:print_download", args=[competition.event.slug, competition.slug, key])


@pytest.mark.django_db
def test_an_anonymous_visitor_is_sent_to_log_in(client, competition):
    response = client.get(download_url(competition, "wall-chart"))
    assert response.status_code == 302
    assert "login" in response["Location"]


@pytest.mark.django_db
def test_an_organiser_of_another_event_is_refused(client, outsider, competition):
    client.force_login(outsider)
    assert client.get(download_url(competition, "wall-chart")).status_code == 403


@pytest.mark.django_db
def test_an_unknown_key_scope_or_language_is_not_found(desk_client, competition):
    assert desk_client.get(download_url(competition, "nothing")).status_code == 404
    url = download_url(competition, "wall-chart")
    assert desk_client.get(url, {"scope": "no-such"}).status_code == 404
    assert desk_client.get(url, {"scope": 'a"b'}).status_code == 404
    assert desk_client.get(url, {"lang": "de"}).status_code == 404
