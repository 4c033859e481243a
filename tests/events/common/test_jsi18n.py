"""The JavaScript catalogue (events/common/jsi18n.py): served per language, versioned, loaded
first."""

from __future__ import annotations

import pytest
from django.urls import reverse

from events.common.jsi18n import catalogue_version

SWEDISH = {"HTTP_ACCEPT_LANGUAGE": "sv"}


@pytest.mark.django_db
def test_the_javascript_catalogue_is_served_per_language_and_loaded_first(client):
    page = client.get(reverse("events:index"), **SWEDISH).content.decode()
    url = f"/jsi18n/sv/?v={catalogue_version()}"
    assert f'<script src="{url}" defer></script>' in page
    assert page.index(url) < page.index("js/site.js")

    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert "immutable" in response["Cache-Control"]
    assert "script-src 'self'" in response["Content-Security-Policy"]
    body = response.content.decode()
    assert "django.gettext" in body and "interpolate" in body
    assert "eval(" not in body

    assert "immutable" not in client.get("/jsi18n/sv/")["Cache-Control"]
    assert client.get("/jsi18n/de/").status_code == 404
