"""The round robin player page's time chart (the latest game): the hours read back from the
SVG equal the table beside it and the stored turns; leave that moved a deadline draws each
turn's own time; an admin correction of a turn changes them (and the ETag); the query count
does not grow with the games; nothing drawn before a closed turn."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from roundrobin.models import Turn
from tests.support.charts import chart_svg, chart_table, svg_guides, svg_points
from tests.support.factories import UserFactory
from tests.support.roundrobin import HOUR, START, move, started_duel, started_with

pytestmark = pytest.mark.django_db


def player_url(competition, entry) -> str:
    return reverse("roundrobin:player", args=[competition.event.slug, competition.slug, entry.pk])


def html_of(client, address: str) -> str:
    response = client.get(address)
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture
def two_turns(event):
    duel = started_duel(event)
    move(duel.white, duel.game, 1, "e4", at=START + 2 * HOUR)
    move(duel.black, duel.game, 1, "e5", at=START + 5 * HOUR)
    move(duel.white, duel.game, 2, "Nf3", at=START + 8 * HOUR)
    move(duel.black, duel.game, 2, "Nc6", at=START + 9 * HOUR)
    return duel


def test_the_chart_shows_the_hours_of_the_table_and_the_turns(client, two_turns):
    duel = two_turns
    html = html_of(client, player_url(duel.competition, duel.black))
    svg = chart_svg(html, "moves")
    points = svg_points(svg)
    headings, rows = chart_table(html, "moves")
    turns = list(Turn.objects.filter(game=duel.game, closed_at__isnull=False).order_by("number"))
    used = [(t.second_moved_at - t.opened_at) / HOUR for t in turns]
    assert (
        [(p.x, p.y) for p in points]
        == [("1", 5.0), ("2", 4.0)]
        == [(str(t.number), hours) for t, hours in zip(turns, used, strict=True)]
    )
    assert {p.series for p in points} == {"Hours used"}
    assert f"Time per move: Black vs {duel.white.player.public_name}" in html
    assert [row[:3] for row in rows] == [["1", "5.0", "24.0"], ["2", "4.0", "24.0"]]
    assert headings == ["Turn", "Hours used", "Hours given", "Deadline"]
    assert svg_guides(svg) == [("24 h per move", 24.0)]


def test_an_admin_correction_of_a_turn_changes_the_chart_and_the_etag(client, two_turns):
    duel = two_turns
    address = player_url(duel.competition, duel.white)
    before = client.get(address)
    assert [p.y for p in svg_points(chart_svg(before.content.decode(), "moves"))] == [2.0, 3.0]
    turn = Turn.objects.get(game=duel.game, number=2)
    admin = client.__class__()
    admin.force_login(UserFactory(username="chart-root", is_staff=True, is_superuser=True))
    change = reverse("admin:roundrobin_turn_change", args=[turn.pk])
    form = admin.get(change).content.decode()
    data = {
        name: value
        for name, value in re.findall(r'<input[^>]* name="([^"]+)"[^>]* value="([^"]*)"', form)
        if name != "csrfmiddlewaretoken"
    }
    data.update(game=turn.game_id, first_move="Nf3", second_move="Nc6")
    # White's move an hour later, as Black's (Stockholm time, UTC + 1): 4 hours after the turn
    # opened at 17:00 UTC
    data.update({"first_moved_at_0": "2026-03-01", "first_moved_at_1": "22:00:00"})
    response = admin.post(change, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    after = client.get(address, headers={"If-None-Match": before["ETag"]})
    assert after.status_code == 200
    assert after["ETag"] != before["ETag"]
    assert [p.y for p in svg_points(chart_svg(after.content.decode(), "moves"))] == [2.0, 4.0]


def test_a_deadline_moved_by_leave_draws_each_turns_time(client, two_turns):
    duel = two_turns
    turn = Turn.objects.get(game=duel.game, number=2)
    Turn.objects.filter(pk=turn.pk).update(deadline=turn.deadline + 48 * HOUR)
    html = html_of(client, player_url(duel.competition, duel.white))
    svg = chart_svg(html, "moves")
    given = [p.y for p in svg_points(svg) if p.series == "Hours given"]
    assert given == [24.0, 72.0]
    assert [row[2] for row in chart_table(html, "moves")[1]] == ["24.0", "72.0"]
    assert svg_guides(svg) == []


def test_no_chart_before_a_closed_turn(client, event):
    duel = started_duel(event)
    move(duel.white, duel.game, 1, "e4", at=START + HOUR)
    html = html_of(client, player_url(duel.competition, duel.white))
    assert 'id="move-charts"' not in html


@pytest.mark.parametrize("players", [3, 7])
def test_the_page_keeps_its_query_count(client, event, players, django_assert_max_num_queries):
    competition, entries = started_with(event, f"rr-{players}", players)
    for turn in Turn.objects.filter(closed_at__isnull=True):
        Turn.objects.filter(pk=turn.pk).update(
            first_moved_at=turn.opened_at + HOUR,
            second_moved_at=turn.opened_at + 3 * HOUR,
            closed_at=turn.opened_at + 3 * HOUR,
        )
    address = player_url(competition, entries[0])
    # the page's own reads and the chart's two (seats, turns), the event's language first
    with django_assert_max_num_queries(11):
        html = html_of(client, address)
    assert len(svg_points(chart_svg(html, "moves"))) == 1  # the latest game's one turn
    others = players - 2
    assert f"{others} other game{'s have' if others > 1 else ' has'} turns too" in html
