from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from blokus import services
from blokus.models import SessionPlayer
from events.models import Competition, Game
from tests.support.blokus import (
    HTMX,
    big_tournament,
    flashed_codes,
    play_session,
    register,
    result_fields,
    seat_players,
    seated,
    small,
    url,
)
from tests.support.factories import CompetitionFactory, EntryFactory


def test_desk_pages_need_the_organiser(client, outsider, competition, drawn):
    game = Game.objects.filter(round__session=drawn).first()
    round_ = drawn.rounds.get()
    addresses = [
        url("desk", competition),
        url("desk_session", competition, 1),
        url("game_result", competition, game.pk),
        url("round_cards", competition, round_.pk),
    ]
    for address in addresses:
        response = client.get(address)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    client.force_login(outsider)
    for address in addresses:
        assert client.get(address).status_code == 403


def test_desk_pages_render(desk_client, competition, drawn):
    game = Game.objects.filter(round__session=drawn).first()
    round_ = drawn.rounds.get()
    for address in [
        url("desk", competition),
        url("desk_session", competition, 1),
        url("desk_session", competition, 2),
        url("game_result", competition, game.pk),
        url("round_cards", competition, round_.pk),
        competition.get_desk_url(),
    ]:
        response = desk_client.get(address)
        assert response.status_code == 200, address
    html = desk_client.get(url("desk_session", competition, 1), headers=HTMX).content.decode()
    assert "<html" not in html and 'id="session-desk"' in html
    cards = desk_client.get(url("round_cards", competition, round_.pk)).content.decode()
    assert "<svg" in cards and "Table 3" in cards


def test_writes_reject_get(desk_client, competition, sessions):
    for name, args in [("round_draw", [1]), ("session_register", [1])]:
        assert desk_client.get(url(name, competition, *args)).status_code == 405


def test_the_organiser_sets_up_sessions_in_the_events_time_zone(desk_client, competition):
    response = desk_client.post(
        url("sessions_set_up", competition),
        {"session_1": "2026-05-06T10:00", "session_2": ""},
    )
    assert response.status_code == 302
    first, second = competition.sessions.order_by("number")
    assert first.starts_at.isoformat() == "2026-05-06T08:00:00+00:00"  # Stockholm, summer
    assert second.starts_at is None
    bad = desk_client.post(url("sessions_set_up", competition), {"session_1": "tomorrow"})
    assert bad.status_code == 400 and "valid date" in bad.content.decode()


def test_the_desk_registers_checks_in_previews_and_seats(desk_client, competition, sessions):
    entries = EntryFactory.create_batch(5, competition=competition)
    address = url("session_register", competition, 1)
    for entry in entries:
        html = desk_client.post(
            address, {"entry": entry.pk, "check_in": "1"}, headers=HTMX
        ).content.decode()
    assert "5 registered, 5 checked in" in html
    preview = desk_client.get(url("session_seat", competition, 1), headers=HTMX).content.decode()
    assert "4 play" in preview and "1 reserve" in preview and "Confirm seating" in preview
    assert not SessionPlayer.objects.filter(role="seated").exists()
    html = desk_client.post(url("session_seat", competition, 1), headers=HTMX).content.decode()
    assert "Seated: 4 playing, 1 reserve." in html
    assert "Draw round 1" in html
    html = desk_client.post(url("round_draw", competition, 1), headers=HTMX).content.decode()
    assert "Round 1 drawn" in html and "Enter result" in html
    round_ = sessions[0].rounds.get()
    html = desk_client.post(url("round_start", competition, round_.pk), headers=HTMX)
    assert "The clock is running" in html.content.decode()
    competition.refresh_from_db()
    assert competition.status == Competition.Status.RUNNING


def test_the_desk_says_when_fewer_than_four_are_present(desk_client, competition, sessions):
    register(competition, sessions[0], 3)
    html = desk_client.get(url("session_seat", competition, 1), headers=HTMX).content.decode()
    assert "cannot start" in html
    response = desk_client.post(url("session_seat", competition, 1))
    assert response.status_code == 302
    assert flashed_codes(desk_client.get(response["Location"])) == {"too_few_present"}


def test_desk_refusals_show_in_place(desk_client, competition, seated_session, sessions):
    played = seated(seated_session)[0]
    response = desk_client.post(
        url("session_register", competition, 2), {"entry": played.entry.pk}, headers=HTMX
    )
    assert response.context["error_code"] == "already_played"
    assert 'data-code="already_played"' in response.content.decode()
    other = EntryFactory()
    bad = desk_client.post(url("session_register", competition, 2), {"entry": other.pk})
    assert bad.status_code == 404
    assert (
        desk_client.post(url("session_register", competition, 2), {"entry": "x"}).status_code == 404
    )
    sp = seated(seated_session)[0]
    assert (
        desk_client.post(
            url("session_player_action", competition, 2, sp.pk, "check_in")
        ).status_code
        == 404
    )
    assert (
        desk_client.post(url("session_player_action", competition, 1, sp.pk, "explode")).status_code
        == 404
    )
    html = desk_client.post(
        url("session_player_action", competition, 1, sp.pk, "drop_out"), headers=HTMX
    ).content.decode()
    assert "out after round 0" in html


def test_the_desk_replaces_a_player_with_a_reserve(desk_client, competition, seated_session):
    out = seated(seated_session)[0]
    reserve = SessionPlayer.objects.get(session=seated_session, role="reserve")
    response = desk_client.post(
        url("session_replace", competition, 1), {"seated": out.pk, "reserve": reserve.pk}
    )
    assert response.status_code == 302
    assert SessionPlayer.objects.get(pk=reserve.pk).role == "seated"


def test_the_final_from_the_desk(desk_client, competition, sessions):
    competition.settings = {**competition.settings, "qualifying_sessions": 1}
    competition.save()
    services.sessions_set_up(competition=competition, roll_calls=[None])
    register(competition, sessions[0], 8)
    services.session_seat(session=sessions[0])
    assert "has not" in desk_client.get(url("desk", competition)).content.decode()
    play_session(sessions[0], random.Random(5))
    assert "Seat the final" in desk_client.get(url("desk", competition)).content.decode()
    preview = desk_client.get(url("final_seat", competition)).context["final_preview"]
    confirm = {"version": preview.version}
    assert desk_client.post(url("final_seat", competition), confirm).status_code == 302
    game = Game.objects.get(round__session__kind="final")
    response = desk_client.post(
        url("game_result", competition, game.pk), result_fields(game, [0, 1, 2, 3])
    )
    assert response.status_code == 302
    public = desk_client.get(url("overview", competition)).content.decode()
    assert "winner" in public and 'id="final-result"' in public


def test_starting_the_clock_tells_the_page_to_fetch_it(desk_client, competition, drawn):
    round_ = drawn.rounds.get()
    response = desk_client.post(url("round_start", competition, round_.pk), headers=HTMX)
    assert "blokusClock" in response["HX-Trigger"]


def test_rounds_of_other_competitions_are_404(desk_client, competition, drawn, event):
    other = CompetitionFactory(event=event)
    round_ = drawn.rounds.get()
    assert desk_client.get(url("round_cards", other, round_.pk)).status_code == 404
    assert desk_client.post(url("round_start", other, round_.pk)).status_code == 404
    assert (
        desk_client.post(url("session_replace", competition, 1), {"seated": "x"}).status_code == 404
    )


@pytest.mark.parametrize("size", [8, 40])
def test_the_session_desk_takes_constant_queries(
    desk_client, competition, sessions, size, django_assert_max_num_queries
):
    big_tournament(competition, sessions, size)
    # session, user, competition, organiser, session, players, rounds, games, seats, other
    # sessions' players, entries, clock, the session's corrections
    with django_assert_max_num_queries(14):
        assert desk_client.get(url("desk_session", competition, 1)).status_code == 200
    # plus: sessions, lot, qualifiers, seats, final, the open-session check (one query)
    with django_assert_max_num_queries(17):
        assert desk_client.get(url("desk", competition)).status_code == 200


def test_the_desk_overview_query_count_does_not_grow_with_sessions(desk_client, event):
    counts = {}
    for n in (1, 4):
        competition = small(event, sessions=n, slug=f"q{n}")
        for session in competition.sessions.all():
            seat_players(competition, session, 4, prefix=f"C{n}-")
            play_session(session, random.Random(n), rounds=1)
        with CaptureQueriesContext(connection) as queries:
            assert desk_client.get(url("desk", competition)).status_code == 200
        counts[n] = len(queries)
    assert counts[1] == counts[4]
