"""The desk's side: the queue (oldest first) with its ETag, the badge's count, "on my way" and
"done", and who may use them."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from events.help import services
from events.help.models import HelpCall
from tests.support.help import help_world, queue_url

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def world():
    return help_world()


def _calls(world):
    start = dt.datetime(2026, 5, 6, 10, 0, tzinfo=dt.UTC)
    late, _ = services.call_for_help(
        competition=world.competition, table=2, reason="clock", now=start + dt.timedelta(minutes=2)
    )
    early, _ = services.call_for_help(
        competition=world.competition, table=1, reason="dispute", note="who won?", now=start
    )
    return early, late


def test_the_queue_lists_open_calls_oldest_first(client, world):
    early, late = _calls(world)
    client.force_login(world.scorekeeper)
    body = client.get(queue_url(world.event)).content.decode()
    assert body.index("who won?") < body.index("The clock")
    assert "2 open calls" in body


def test_a_queue_poll_with_nothing_new_is_a_304(client, world, django_assert_max_num_queries):
    _calls(world)
    client.force_login(world.organiser)
    url = queue_url(world.event) + "?part=queue"
    first = client.get(url, **HTMX)
    assert first.status_code == 200 and "private" in first["Cache-Control"]
    with django_assert_max_num_queries(5):  # the session, the user, the event, the role, the stamp
        again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"], **HTMX)
    assert again.status_code == 304
    services.call_for_help(competition=world.competition, table=1, reason="clock")  # joined
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    call = HelpCall.objects.get(table=1)
    services.call_take(call=call, by=world.organiser)
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200


def test_the_queue_reads_a_constant_number_of_queries(client, world, django_assert_max_num_queries):
    _calls(world)
    client.force_login(world.organiser)
    with django_assert_max_num_queries(10) as few:
        client.get(queue_url(world.event))
    for table in (3, 4):
        HelpCall.objects.create(
            competition=world.competition, table=table, reason="other", key=f"k{table}"
        )
    with django_assert_max_num_queries(len(few.captured_queries)):
        client.get(queue_url(world.event))


def test_the_badge_counts_the_open_calls(client, world):
    client.force_login(world.scorekeeper)
    url = reverse("events:help_badge", args=[world.event.slug])
    assert 'data-help-count="0"' in client.get(url).content.decode()
    _calls(world)
    assert 'data-help-count="2"' in client.get(url).content.decode()


def test_take_and_close_from_the_queue(client, world):
    early, _late = _calls(world)
    client.force_login(world.scorekeeper)
    taken = client.post(reverse("events:help_take", args=[world.event.slug, early.pk]), **HTMX)
    assert taken.status_code == 200 and "knows you are on your way" in taken.content.decode()
    early.refresh_from_db()
    assert early.taken_by == world.scorekeeper
    closed = client.post(reverse("events:help_close", args=[world.event.slug, early.pk]))
    assert closed.status_code == 302
    early.refresh_from_db()
    assert early.closed_by == world.scorekeeper
    again = client.post(reverse("events:help_close", args=[world.event.slug, early.pk]), **HTMX)
    assert "closed already" in again.content.decode()
    # The closed call stays in the page's history of calls with its times.
    assert "closed by" in client.get(queue_url(world.event)).content.decode()


def test_strangers_and_other_events_are_refused(client, world):
    early, _late = _calls(world)
    client.force_login(world.stranger)
    assert client.get(queue_url(world.event)).status_code == 403
    assert (
        client.post(reverse("events:help_take", args=[world.event.slug, early.pk])).status_code
        == 403
    )
    other = help_world(slug="other-cup")
    client.force_login(other.organiser)
    assert (
        client.post(reverse("events:help_close", args=[world.event.slug, early.pk])).status_code
        == 403
    )
    # Their own event's address does not reach this event's call.
    assert (
        client.post(reverse("events:help_close", args=[other.event.slug, early.pk])).status_code
        == 404
    )
    early.refresh_from_db()
    assert early.is_open and not early.is_taken
    client.logout()
    assert client.get(queue_url(world.event)).status_code == 302
