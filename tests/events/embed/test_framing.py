"""The widget's framing headers, and every other page still framed by nobody."""

import re

import pytest
from django.test import Client
from django.urls import get_resolver, reverse

from events.embed import framing, services
from events.models import Event
from tests.support.factories import CompetitionFactory, EventFactory
from tests.support.routes import routes

pytestmark = pytest.mark.django_db


def widget_url(competition):
    return reverse("events:widget", args=[competition.event.slug, competition.slug])


def ancestors(response) -> str:
    policy = response["Content-Security-Policy"]
    return next(p.strip() for p in policy.split(";") if p.strip().startswith("frame-ancestors"))


def test_only_the_listed_sites_frame_the_widget(competition, organiser):
    services.event_sites_save(
        competition.event,
        sites="https://club.se\nhttps://*.klubb.se",
        with_club_sites=True,
        by=organiser,
    )
    response = Client().get(widget_url(competition))
    assert response.status_code == 200
    assert ancestors(response) == "frame-ancestors 'self' https://club.se https://*.klubb.se"
    assert "X-Frame-Options" not in response
    # The rest of the policy is the site's own.
    assert "script-src 'self'" in response["Content-Security-Policy"]
    assert "object-src 'none'" in response["Content-Security-Policy"]


def test_with_no_site_listed_only_this_site_frames_it(competition):
    response = Client().get(widget_url(competition))
    assert ancestors(response) == "frame-ancestors 'self'"
    assert response["X-Frame-Options"] == "SAMEORIGIN"


def test_the_club_default_comes_in_unless_the_event_leaves_it_out(competition, organiser):
    club = competition.event.host
    services.club_sites_save(club, sites="https://club.se", by=organiser)
    assert ancestors(Client().get(widget_url(competition))).endswith("https://club.se")
    services.event_sites_save(
        competition.event, sites="https://event.se", with_club_sites=False, by=organiser
    )
    assert ancestors(Client().get(widget_url(competition))) == (
        "frame-ancestors 'self' https://event.se"
    )


def test_a_304_carries_the_same_headers_and_follows_a_change(competition, organiser):
    client = Client()
    first = client.get(widget_url(competition))
    again = client.get(widget_url(competition), HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    assert ancestors(again) == "frame-ancestors 'self'"
    services.event_sites_save(
        competition.event, sites="https://club.se", with_club_sites=True, by=organiser
    )
    changed = client.get(widget_url(competition), HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200  # the sites are part of the version
    assert ancestors(changed) == "frame-ancestors 'self' https://club.se"
    assert "X-Frame-Options" not in changed


def test_an_unknown_competition_frames_nothing():
    response = Client().get("/e/nowhere/nothing/widget/")
    assert response.status_code == 404
    assert ancestors(response) == "frame-ancestors 'none'"
    assert response["X-Frame-Options"] == "DENY"


def test_the_version_is_read_from_the_answers_etag():
    class Answer:
        headers = {"ETag": '"c-12.34.5678-p-en-z"'}

    assert framing.version_of(Answer()) == (12, 34, 5678)  # type: ignore[arg-type]
    Answer.headers = {"ETag": '"e-12.34.5678-p-en"'}
    assert framing.version_of(Answer()) is None  # type: ignore[arg-type]


SAMPLE_KINDS = re.compile(r"^(e/<slug:event_slug>/|c/<slug:club_slug>/|$|series/)")


def test_every_other_public_page_still_frames_nothing(competition, organiser):
    """A sample of the site's public routes, with the event's sites listed: none but the
    widget lets them in."""
    services.event_sites_save(
        competition.event, sites="https://club.se", with_club_sites=True, by=organiser
    )
    values = {
        "event_slug": competition.event.slug,
        "competition_slug": competition.slug,
        "club_slug": competition.event.host.slug,
    }
    checked = []
    for name, route in routes(get_resolver().url_patterns):
        if not SAMPLE_KINDS.match(route) or name == "events:widget":
            continue
        address = re.sub(r"<(?:\w+:)?(\w+)>", lambda m: values.get(m.group(1), "1"), route)
        if "<" in address or "(?" in route:
            continue
        response = Client().get("/" + address)
        checked.append(address)
        assert ancestors(response) == "frame-ancestors 'none'", address
        assert response["X-Frame-Options"] == "DENY", address
    assert len(checked) >= 10, checked
    assert any(a.endswith("/overlay/ticker/") for a in checked)


def test_other_events_keep_their_own_sites(competition, organiser):
    other = CompetitionFactory(event=EventFactory(host=competition.event.host))
    services.event_sites_save(
        competition.event, sites="https://club.se", with_club_sites=True, by=organiser
    )
    assert ancestors(Client().get(widget_url(other))) == "frame-ancestors 'self'"
    assert Event.objects.count() == 2
