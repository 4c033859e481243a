"""Regression tests for the bugs found in the independent review of the Blokus app."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from blokus import selectors, services
from blokus.models import Hand, SessionNotHeld, SessionPlayer
from events import services as event_services
from events.models import Competition, Game, Seat
from events.services import ServiceError
from tests.blokus.conftest import hands_for, play_round, play_session, register, seated
from tests.factories import CompetitionFactory

HTMX = {"HX-Request": "true"}


def url(name, competition, *args):
    return reverse(f"blokus:{name}", args=[competition.event.slug, competition.slug, *args])


def small(event, *, sessions=1, rounds=1, slug="small") -> Competition:
    competition = CompetitionFactory(
        event=event,
        slug=slug,
        settings={
            "qualifying_sessions": sessions,
            "capacity": 12,
            "rounds_per_session": rounds,
            "round_minutes": 15,
            "official_bonus": False,
        },
    )
    services.sessions_set_up(competition=competition, roll_calls=[None] * sessions)
    return competition


def record(game: Game, squares: list, **kw) -> None:
    """Save ``game`` with squares per seat in position order; 0 means monomino last."""
    game.refresh_from_db()
    seats = list(game.seats.order_by("position"))
    services.game_result_record(
        game=game,
        revision=game.revision,
        hands=[services.HandInput(s.pk, n, n == 0) for s, n in zip(seats, squares, strict=True)],
        **kw,
    )


def entries_of(game: Game) -> list[int]:
    return list(game.seats.order_by("position").values_list("entry_id", flat=True))


def admin_client(client):
    user = get_user_model().objects.create_superuser("root", "", "pw-for-tests-only")
    client.force_login(user)
    return client


@pytest.fixture
def eight_played(event):
    """One session, one round, 8 players, two games with known results:
    game 1 (A1..A4) and game 2 (B1..B4) both 0+mono, 1, 2, 3 -> QP 3, 2, 1, 0."""
    competition = small(event)
    session = competition.sessions.get()
    register(competition, session, 8)
    services.session_seat(session=session)
    round_ = services.round_draw(session=session, seed=1)
    a, b = round_.games.order_by("number")
    record(a, [0, 1, 2, 3])
    record(b, [0, 1, 2, 3])
    return competition, session, entries_of(a), entries_of(b)


# --- 1. no reserve once round 1 has started --------------------------------------------------


def test_a_reserve_cannot_replace_once_round_one_has_a_result(seated_session):
    out = seated(seated_session)[0]
    reserve = SessionPlayer.objects.get(session=seated_session, role="reserve")
    round_ = services.round_draw(session=seated_session, seed=3)
    game = round_.games.get(seats__entry=out.entry)
    record(game, [5, 6, 7, 8])  # a result, but nobody started the clock
    with pytest.raises(ServiceError, match="Round 1 has started"):
        services.session_replace(seated=out, reserve=reserve)
    assert not selectors.session_view(seated_session).can_replace


def test_a_reserve_cannot_replace_once_round_two_is_drawn(seated_session):
    out = seated(seated_session)[0]
    reserve = SessionPlayer.objects.get(session=seated_session, role="reserve")
    play_round(services.round_draw(session=seated_session, seed=3), random.Random(1))
    services.round_draw(session=seated_session, seed=4)
    with pytest.raises(ServiceError, match="Round 1 has started"):
        services.session_replace(seated=out, reserve=reserve)
    assert SessionPlayer.objects.get(pk=out.pk).role == "seated"
    assert not Seat.objects.filter(entry=reserve.entry).exists()


def test_the_desk_refuses_a_late_replacement_in_place(desk_client, competition, seated_session):
    out = seated(seated_session)[0]
    reserve = SessionPlayer.objects.get(session=seated_session, role="reserve")
    round_ = services.round_draw(session=seated_session, seed=3)
    play_round(round_, random.Random(2))
    response = desk_client.post(
        url("session_replace", competition, 1),
        {"seated": out.pk, "reserve": reserve.pk},
        headers=HTMX,
    )
    assert response.status_code == 200 and "Round 1 has started" in response.content.decode()
    assert Seat.objects.filter(game__round=round_, entry=out.entry).exists()


# --- 2. a session that cannot be held does not block the final ------------------------------


def test_a_session_not_held_does_not_block_the_final(event):
    competition = small(event, sessions=2)
    first, second = competition.sessions.order_by("number")
    register(competition, first, 8)
    services.session_seat(session=first)
    play_session(first, random.Random(3), rounds=1)
    register(competition, second, 3, prefix="Q")
    with pytest.raises(ServiceError, match="Only 3 checked in"):
        services.session_seat(session=second)
    with pytest.raises(ServiceError, match="Qualifying session 2 has not"):
        services.final_seat(competition=competition)
    with pytest.raises(ServiceError, match="Say why"):
        services.session_not_held(session=second, reason="  ")
    with pytest.raises(ServiceError, match="it was held"):
        services.session_not_held(session=first, reason="x")
    services.session_not_held(session=second, reason="Only 3 came.")
    with pytest.raises(ServiceError, match="already declared"):
        services.session_not_held(session=second, reason="again")
    with pytest.raises(ServiceError, match="not held: Only 3 came"):
        services.session_seat(session=second)
    assert services.qualifying_complete(competition) is None
    final = services.final_seat(competition=competition, seed=1, lot_seed=2)
    rows = selectors.qualification_rows(competition)
    assert {s.entry_id for s in Seat.objects.filter(game__round__session=final)} == {
        r.entry.pk for r in rows[:4]
    }
    with pytest.raises(ServiceError, match="final is seated"):
        services.session_not_held_undo(session=second)


def test_not_held_can_be_undone_and_frees_its_players(event):
    competition = small(event, sessions=2)
    first, second = competition.sessions.order_by("number")
    (sp,) = register(competition, second, 1, check_in=0)
    services.session_not_held(session=second, reason="No room.")
    services.session_register(session=first, entry=sp.entry)  # not "take them off" first
    services.session_not_held_undo(session=second)
    with pytest.raises(ServiceError, match="is not declared"):
        services.session_not_held_undo(session=second)


def test_the_desk_declares_a_session_not_held(desk_client, event):
    competition = small(event, sessions=2)
    first, second = competition.sessions.order_by("number")
    register(competition, first, 4)
    services.session_seat(session=first)
    play_session(first, random.Random(4), rounds=1)
    register(competition, second, 3, prefix="Q")
    page = desk_client.get(url("desk_session", competition, 2)).content.decode()
    assert "Declare not held" in page and "Only 3 checked in at the roll call." in page
    address = url("session_not_held", competition, 2)
    empty = desk_client.post(address, {"reason": ""}, headers=HTMX)
    assert empty.status_code == 200 and "Say why" in empty.content.decode()
    assert desk_client.post(address, {"reason": "Only three came."}).status_code == 302
    desk = desk_client.get(url("desk", competition)).content.decode()
    assert "Only three came." in desk and "Seat the final" in desk
    public = desk_client.get(url("overview", competition)).content.decode()
    assert "not held" in public and "Only three came." in public
    session_page = desk_client.get(url("session", competition, 2)).content.decode()
    assert "This session is not held: Only three came." in session_page
    assert desk_client.post(address, {"undo": "1"}, headers=HTMX).status_code == 200
    assert not SessionNotHeld.objects.exists()


# --- 3. R-BLK-07 on replacement ------------------------------------------------------------


def test_a_reserve_seated_in_another_session_cannot_replace(competition, seated_session, sessions):
    reserve = SessionPlayer.objects.get(session=seated_session, role="reserve")
    second = sessions[1]
    services.session_register(session=second, entry=reserve.entry)
    services.session_check_in(
        session_player=SessionPlayer.objects.get(session=second, entry=reserve.entry)
    )
    register(competition, second, 3, prefix="Q")
    services.session_seat(session=second)
    assert SessionPlayer.objects.get(session=second, entry=reserve.entry).role == "seated"
    with pytest.raises(ServiceError, match="already played in Qualifying session 2"):
        services.session_replace(seated=seated(seated_session)[0], reserve=reserve)
    assert SessionPlayer.objects.filter(entry=reserve.entry, role="seated").count() == 1


# --- 4. an admin edit makes the desk form stale ----------------------------------------------


def test_an_admin_hand_edit_refuses_a_desk_form_opened_before(
    client, desk_client, competition, seated_session
):
    round_ = services.round_draw(session=seated_session, seed=1)
    game = round_.games.get(number=1)
    record(game, [5, 5, 5, 5])
    game.refresh_from_db()
    opened_at = game.revision  # the desk opens the form now
    hand = Hand.objects.filter(seat__game=game).order_by("seat__position").first()
    admin = admin_client(client)
    before = Competition.objects.get(pk=competition.pk).version
    address = reverse("admin:blokus_hand_change", args=[hand.pk])
    response = admin.post(address, {"squares_left": 0, "pieces": "[]"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.revision > opened_at
    assert Competition.objects.get(pk=competition.pk).version > before
    data = {"revision": opened_at}
    for seat in game.seats.order_by("position"):
        data[f"squares_{seat.pk}"] = 5
    stale = desk_client.post(url("game_result", competition, game.pk), data)
    assert stale.status_code == 409
    assert Seat.objects.get(pk=hand.seat_id).score == 0  # the admin's correction stands


# --- 5. the final's score card and a robust final view ---------------------------------------


def test_the_final_card_and_overview_after_the_final_result(desk_client, client, event):
    competition = small(event)
    session = competition.sessions.get()
    register(competition, session, 8)
    services.session_seat(session=session)
    play_session(session, random.Random(5), rounds=1)
    final = services.final_seat(competition=competition, seed=1, lot_seed=1)
    game = Game.objects.get(round__session=final)
    record(game, [3, 1, 0, 9])
    round_id = game.round_id
    assert desk_client.get(url("round_cards", competition, round_id)).status_code == 200
    # An admin removes a finalist's session record: the public page still answers.
    gone = game.seats.get(position=1).entry
    SessionPlayer.objects.filter(entry=gone).delete()
    rows = selectors.qualification_rows(competition)
    assert gone.pk not in {r.entry.pk for r in rows}
    view = selectors.final_view(competition, rows)
    assert [seat.entry.pk for _, seat in view.placed][0] == game.seats.get(position=3).entry_id
    assert len(view.placed) == 4
    assert client.get(url("overview", competition)).status_code == 200
    assert desk_client.get(url("round_cards", competition, round_id)).status_code == 200


# --- 6. a qualifying correction after the final is seated ------------------------------------


def test_a_correction_after_the_final_is_seated_needs_confirmation(eight_played, desk_client):
    competition, session, a, b = eight_played
    final = services.final_seat(competition=competition, seed=1, lot_seed=1)
    at_final = set(Seat.objects.filter(game__round__session=final).values_list("entry", flat=True))
    assert at_final == {a[0], a[1], b[0], b[1]}
    game_a = Game.objects.get(round__session=session, number=1)
    page = desk_client.get(url("game_result", competition, game_a.pk)).content.decode()
    assert "The final was seated from the earlier standings" in page
    with pytest.raises(ServiceError, match="the finalists stay as seated"):
        record(game_a, [10, 11, 0, 12])
    record(game_a, [10, 11, 0, 12], confirm_later_round=True)
    rows = selectors.qualification_rows(competition)
    assert rows[0].entry.pk in {a[2], b[0]}  # A3 is now among the best on points
    assert {r.entry.pk for r in rows if r.finalist} == at_final
    overview = desk_client.get(url("overview", competition)).content.decode()
    assert overview.count('class=" finalist"') + overview.count('class="cut finalist"') == 4


# --- 9. admin edits of seating; rule errors never 500 ----------------------------------------


def test_seating_is_read_only_in_the_admin(client, competition, seated_session):
    out = seated(seated_session)[0]
    reserve = SessionPlayer.objects.get(session=seated_session, role="reserve")
    services.session_replace(seated=out, reserve=reserve)
    admin = admin_client(client)
    address = reverse("admin:blokus_sessionplayer_change", args=[out.pk])
    page = admin.get(address).content.decode()
    assert "corrected on the session" in page
    response = admin.post(address, {"role": "seated", "dropped_after_round": "0"})
    assert response.status_code == 302
    out.refresh_from_db()
    assert (out.role, out.dropped_after_round) == ("replaced", None)
    services.round_draw(session=seated_session, seed=1)


def test_a_rule_error_after_a_database_edit_is_a_message(desk_client, competition, seated_session):
    out = seated(seated_session)[0]
    reserve = SessionPlayer.objects.get(session=seated_session, role="reserve")
    services.session_replace(seated=out, reserve=reserve)
    SessionPlayer.objects.filter(pk=out.pk).update(role="seated")  # 13 seated now
    with pytest.raises(ServiceError, match="multiple of four"):
        services.round_draw(session=seated_session)
    response = desk_client.post(url("round_draw", competition, 1), headers=HTMX)
    assert response.status_code == 200 and "multiple of four" in response.content.decode()


def test_the_admin_refuses_squares_for_a_dropped_out_player(client, seated_session):
    rng = random.Random(6)
    play_round(services.round_draw(session=seated_session, seed=1), rng)
    gone = seated(seated_session)[0]
    services.session_drop_out(session_player=gone)
    second = services.round_draw(session=seated_session, seed=2)
    game = second.games.get(seats__entry=gone.entry)
    services.game_result_record(game=game, revision=0, hands=hands_for(game, rng))
    hand = Hand.objects.get(seat__game=game, seat__entry=gone.entry)
    admin = admin_client(client)
    address = reverse("admin:blokus_hand_change", args=[hand.pk])
    response = admin.post(address, {"squares_left": 5, "pieces": "[]"})
    assert response.status_code == 200 and "all 89 squares left" in response.content.decode()
    assert Hand.objects.get(pk=hand.pk).squares_left == 89


# --- 10. withdrawal ----------------------------------------------------------------------------


def test_a_withdrawn_players_page_is_shown(client, eight_played):
    competition, _session, a, _b = eight_played
    entry = competition.entries.get(pk=a[3])
    event_services.entry_withdraw(entry=entry)
    response = client.get(url("player", competition, entry.pk))
    assert response.status_code == 200 and "withdrawn" in response.content.decode()


def test_a_withdrawal_drops_the_player_from_the_next_round(event):
    competition = small(event, rounds=2)
    session = competition.sessions.get()
    register(competition, session, 8)
    services.session_seat(session=session)
    play_round(services.round_draw(session=session, seed=1), random.Random(7))
    gone = seated(session)[0]
    event_services.entry_withdraw(entry=gone.entry)
    second = services.round_draw(session=session, seed=2)
    assert SessionPlayer.objects.get(pk=gone.pk).dropped_after_round == 1
    game = second.games.get(seats__entry=gone.entry)
    seats = list(game.seats.order_by("position"))
    with pytest.raises(ServiceError, match="dropped out"):
        services.game_result_record(
            game=game, revision=0, hands=[services.HandInput(s.pk, 5) for s in seats]
        )


def test_a_withdrawn_qualifier_is_not_seated_at_the_final(eight_played):
    competition, _session, a, b = eight_played
    event_services.entry_withdraw(entry=competition.entries.get(pk=a[0]))
    rows = selectors.qualification_rows(competition)
    flagged = {r.entry.pk for r in rows if r.finalist}
    assert a[0] not in flagged and {b[0], a[1], b[1]} <= flagged and len(flagged) == 4
    final = services.final_seat(competition=competition, seed=1, lot_seed=1)
    at_final = set(Seat.objects.filter(game__round__session=final).values_list("entry", flat=True))
    assert a[0] not in at_final and at_final == flagged


def test_a_withdrawn_player_is_not_seated_at_the_roll_call(competition, sessions):
    players = register(competition, sessions[0], 5)
    event_services.entry_withdraw(entry=players[0].entry)
    plan = services.session_seat(session=sessions[0])
    assert players[0] not in plan.players + plan.reserves and len(plan.players) == 4


# --- 11. the desk overview in a constant number of queries -----------------------------------


def test_the_desk_overview_query_count_does_not_grow_with_sessions(desk_client, event):
    counts = {}
    for n in (1, 4):
        competition = small(event, sessions=n, slug=f"q{n}")
        for session in competition.sessions.all():
            register(competition, session, 4, prefix=f"C{n}-")
            services.session_seat(session=session)
            play_session(session, random.Random(n), rounds=1)
        with CaptureQueriesContext(connection) as queries:
            assert desk_client.get(url("desk", competition)).status_code == 200
        counts[n] = len(queries)
    assert counts[1] == counts[4]
