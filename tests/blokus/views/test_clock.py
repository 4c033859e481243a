"""The desk's clock controls (``blokus.views.clock``): the organiser pauses, resumes and adds
minutes; scorekeepers and outsiders may not."""

from __future__ import annotations

from blokus import services
from tests.support.blokus import HTMX, flashed_codes, url
from tests.support.factories import UserFactory


def test_the_organiser_pauses_resumes_and_adds_from_the_desk(desk_client, competition, round_):
    services.round_start_clock(round=round_)
    desk = desk_client.get(url("desk_session", competition, 1)).content.decode()
    assert f'hx-get="{url("desk_clock", competition)}"' in desk
    body = desk_client.get(url("desk_clock", competition)).content.decode()
    assert "Pause the clock" in body and "Add 5 minutes" in body
    body = desk_client.post(url("clock_pause", competition, round_.pk), headers=HTMX)
    assert "data-paused" in body.content.decode() and "Resume the clock" in body.content.decode()
    body = desk_client.post(url("clock_pause", competition, round_.pk), headers=HTMX)
    assert 'data-code="clock_paused"' in body.content.decode()  # a second click: said, not done
    desk_client.post(url("clock_resume", competition, round_.pk), headers=HTMX)
    body = desk_client.post(
        url("clock_adjust", competition, round_.pk), {"minutes": "5", "seen": "0"}, headers=HTMX
    ).content.decode()
    assert "Clock changed by +5 min." in body
    round_.refresh_from_db()
    assert (round_.paused_at, round_.extra_seconds) == (None, 300)
    # Without htmx: back to the desk with a message.
    response = desk_client.post(
        url("clock_adjust", competition, round_.pk), {"minutes": "5", "seen": "0"}, follow=True
    )
    assert flashed_codes(response) == {"clock_changed"}


def test_scorekeepers_and_outsiders_may_not_touch_the_clock(client, competition, round_, outsider):
    services.round_start_clock(round=round_)
    scorekeeper = UserFactory(username="sam")
    competition.event.organisers.add(scorekeeper, through_defaults={"role": "scorekeeper"})
    for user in (scorekeeper, outsider):
        client.force_login(user)
        for name in ("clock_pause", "clock_resume", "clock_adjust"):
            response = client.post(url(name, competition, round_.pk), {"minutes": "1"})
            assert response.status_code == 403, (user, name)
        assert client.get(url("desk_clock", competition)).status_code == 403
    round_.refresh_from_db()
    assert (round_.paused_at, round_.extra_seconds) == (None, 0)
    # The scorekeeper's desk shows the clock without buttons, fetched from the public address.
    client.force_login(scorekeeper)
    desk = client.get(url("desk_session", competition, 1)).content.decode()
    assert f'hx-get="{url("clock", competition)}"' in desk and "Pause the clock" not in desk
