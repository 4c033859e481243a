"""What every desk view shares (events/desk/http.py): ``desk_view``'s checks and headers, and
the answers after an htmx confirmation, an error and a form sent twice."""

from __future__ import annotations

import json

import pytest
from django.test import RequestFactory
from django_htmx.middleware import HtmxDetails

from events.desk import http
from events.desk.views import competition as competition_views
from events.errors import Conflict, Invalid
from events.models import EventRole
from tests.support.factories import CompetitionFactory, UserFactory


def test_an_unknown_access_is_refused_when_the_view_is_declared():
    with pytest.raises(ValueError, match="Unknown desk access"):
        http.desk_view(allow="everyone")


def test_a_views_access_is_declared_on_it():
    assert competition_views.competition_desk.desk_access == "manage"


@pytest.mark.django_db
def test_a_desk_page_is_private_and_never_stored(desk_client, competition):
    answer = desk_client.get(competition.get_desk_url())
    assert answer.status_code == 200
    assert "no-store" in answer["Cache-Control"] and "private" in answer["Cache-Control"]


@pytest.mark.django_db
def test_a_competition_of_another_event_or_none_at_all_is_a_404(desk_client, competition):
    other = CompetitionFactory(slug="theirs")
    url = competition.get_desk_url().replace(competition.slug, "no-such-competition")
    assert desk_client.get(url).status_code == 404
    wrong_event = other.get_desk_url().replace(other.event.slug, competition.event.slug)
    assert desk_client.get(wrong_event).status_code == 404


@pytest.mark.django_db
def test_a_scorekeeper_is_refused_a_page_for_managers(client, competition):
    keeper = UserFactory(username="keeper")
    EventRole.objects.create(event=competition.event, user=keeper, role="scorekeeper")
    client.force_login(keeper)
    assert client.get(competition.get_desk_url()).status_code == 403


def _request(htmx: bool):
    request = RequestFactory().post("/desk/x/", HTTP_HX_REQUEST="true" if htmx else "")
    request.htmx = HtmxDetails(request)
    return request


def test_after_a_confirmation_the_browser_goes_on_with_or_without_htmx():
    with_htmx = http.go(_request(True), "/desk/next/")
    assert with_htmx["HX-Redirect"] == "/desk/next/"
    without = http.go(_request(False), "/desk/next/")
    assert without.status_code == 302 and without["Location"] == "/desk/next/"


def test_an_error_is_json_with_the_status_of_its_kind():
    answer = http.json_error(Conflict("Taken already.", code="taken"))
    assert answer.status_code == 409
    assert json.loads(answer.content) == {"error": "Taken already.", "code": "taken"}
    assert http.json_error(Invalid("No.")).status_code == 400
