"""The desk's re-draw (``blokus.views.seating``): a page that says what it will do, the draw on
POST, refusals flashed, organisers only; the session desk shows what a draw apart could not
meet and the re-draw's button while the round has no result."""

from __future__ import annotations

import random

import pytest
from django.test import Client

from blokus import services
from events.models import EventRole, Round
from tests.support.blokus import flashed_codes, play_round, record, url
from tests.support.seating import apart, family_of, shared, tables_of

pytestmark = pytest.mark.django_db


def test_the_confirmation_says_what_a_new_draw_does_and_post_draws_it(desk_client, event):
    competition, session = apart(event, mode="first_round", rounds=2)
    round_ = services.round_draw(session=session, seed=1)
    address = url("round_redraw", competition, round_.pk)
    page = desk_client.get(address)
    assert page.status_code == 200
    text = page.content.decode()
    assert "drawn again apart" in text and "Players whose table or colour changes" in text
    assert 'method="post"' in text
    seed = round_.seed
    response = desk_client.post(address, follow=True)
    assert response.redirect_chain[-1][0] == url("desk_session", competition, 1)
    assert "drawn again" in response.content.decode()
    round_.refresh_from_db()
    assert round_.seed != seed
    assert shared(tables_of(round_), family_of(competition)) == 0


def test_a_round_with_a_result_is_refused_with_the_reason(desk_client, event):
    competition, session = apart(event, mode="off", rounds=2)
    round_ = services.round_draw(session=session, seed=1)
    record(round_.games.order_by("number").first(), [0, 5, 10, 20])
    response = desk_client.post(url("round_redraw", competition, round_.pk), follow=True)
    assert flashed_codes(response) == {"round_has_results"}
    assert Round.objects.get(pk=round_.pk).seed == 1


def test_the_session_desk_offers_the_redraw_only_before_any_result(desk_client, event):
    competition, session = apart(event, mode="off", rounds=2)
    round_ = services.round_draw(session=session, seed=1)
    desk = url("desk_session", competition, 1)
    assert 'id="redraw"' in desk_client.get(desk).content.decode()
    play_round(round_, random.Random(1))
    assert 'id="redraw"' not in desk_client.get(desk).content.decode()


def test_the_session_desk_says_which_wish_the_draw_could_not_meet(desk_client, event):
    # Five of one club at two tables: some must share, and the desk says why.
    competition, session = apart(
        event, mode="every_round", rounds=1, groups=[""] * 8, clubs=["Lund"] * 5 + [""] * 3
    )
    services.round_draw(session=session, seed=1)
    text = desk_client.get(url("desk_session", competition, 1)).content.decode()
    assert 'id="seating-report"' in text
    assert "club Lund" in text and "more of them than tables" in text
    assert "repeat table-mates" in text


def test_a_draw_apart_that_met_every_wish_says_so(desk_client, event):
    competition, session = apart(event, mode="every_round", rounds=1)
    services.round_draw(session=session, seed=1)
    text = desk_client.get(url("desk_session", competition, 1)).content.decode()
    assert "no two players of one club or group share a table" in text


def test_a_draw_by_the_rules_shows_no_report(desk_client, event):
    competition, session = apart(event, mode="off", rounds=1)
    services.round_draw(session=session, seed=1)
    text = desk_client.get(url("desk_session", competition, 1)).content.decode()
    assert 'id="seating-report"' not in text and "Tables of four by lot" not in text


def test_only_organisers_draw_again(client, event, django_user_model):
    competition, session = apart(event, mode="off", rounds=1)
    round_ = services.round_draw(session=session, seed=1)
    address = url("round_redraw", competition, round_.pk)
    assert "/accounts/login/" in Client().get(address)["Location"]
    sam = django_user_model.objects.create(username="sam")
    event.organisers.add(sam, through_defaults={"role": EventRole.Role.SCOREKEEPER})
    client.force_login(sam)
    assert client.get(address).status_code == 403
    assert client.post(address).status_code == 403
    assert Round.objects.get(pk=round_.pk).seed == 1
