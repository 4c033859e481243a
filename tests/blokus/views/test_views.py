from __future__ import annotations

import random

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from blokus import services
from blokus.models import SessionPlayer
from events.models import Competition, Game, Seat
from tests.support import totp
from tests.support.blokus import (
    HTMX,
    error_codes,
    flashed_codes,
    play_round,
    play_session,
    register,
    seat_players,
    seated,
    small,
    url,
)
from tests.support.factories import CompetitionFactory, EntryFactory


@pytest.fixture
def drawn(seated_session):
    """Session 1 seated with round 1 drawn."""
    services.round_draw(session=seated_session, seed=1)
    return seated_session


# --- public pages ---------------------------------------------------------------------------


def test_the_public_pages_render_as_page_and_fragment(client, competition, drawn):
    first = Game.objects.filter(round__session=drawn).first()
    entry = first.seats.first().entry
    for address, marker in [
        (url("overview", competition), 'id="overview-live"'),
        (url("session", competition, 1), 'id="session-live"'),
        (url("player", competition, entry.pk), 'id="player-live"'),
    ]:
        page = client.get(address)
        assert page.status_code == 200
        assert "<html" in page.content.decode() and marker in page.content.decode()
        fragment = client.get(address, headers=HTMX).content.decode()
        assert "<html" not in fragment and marker in fragment
    html = client.get(url("session", competition, 1)).content.decode()
    assert "Table 3" in html and entry.player.name in html and "c-blue" in html


def test_the_session_page_shows_the_roll_call_before_seating(client, competition, sessions):
    register(competition, sessions[1], 3, check_in=2)
    html = client.get(url("session", competition, 2)).content.decode()
    assert "3 registered, 2 checked in" in html


def test_the_clock_counts_from_the_servers_start(client, competition, drawn):
    assert "blokus-clock" not in client.get(url("clock", competition)).content.decode()
    round_ = drawn.rounds.get()
    services.round_start_clock(round=round_)
    response = client.get(url("clock", competition))
    html = response.content.decode()
    assert 'data-remaining="900"' in html or 'data-remaining="899"' in html
    assert "no-cache" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]
    assert "blokus-clock" in client.get(url("session", competition, 1)).content.decode()
    # The shared competition page's panel loads the clock itself (hx-trigger "load").
    shared = client.get(competition.get_absolute_url()).content.decode()
    assert f'hx-get="{url("clock", competition)}"' in shared and 'hx-trigger="load,' in shared


def test_an_expired_clock_says_to_finish_the_cycle(client, competition, drawn, time_machine):
    import datetime as dt

    from django.utils import timezone

    round_ = drawn.rounds.get()
    services.round_start_clock(round=round_, now=timezone.now() - dt.timedelta(minutes=16))
    html = client.get(url("clock", competition)).content.decode()
    assert "expired" in html and "through green" in html


def test_unknown_addresses_and_other_formats_are_404(client, competition, drawn):
    assert client.get(url("session", competition, 9)).status_code == 404
    assert client.get(url("player", competition, 99999)).status_code == 404
    other = CompetitionFactory(event=competition.event, format="shuffleboard", settings={})
    assert client.get(url("overview", other)).status_code == 404
    stranger = EntryFactory()
    assert client.get(url("player", competition, stranger.pk)).status_code == 404


def test_public_pages_answer_304_until_a_result_changes(client, competition, drawn):
    address = url("session", competition, 1)
    etag = client.get(address, headers=HTMX)["ETag"]
    assert client.get(address, headers={**HTMX, "If-None-Match": etag}).status_code == 304
    play_round(drawn.rounds.get(), random.Random(1))
    assert client.get(address, headers={**HTMX, "If-None-Match": etag}).status_code == 200


def _big_tournament(competition, sessions, size):
    competition.settings = {**competition.settings, "capacity": 64}
    competition.save()
    register(competition, sessions[0], size)
    services.session_seat(session=sessions[0])
    rng = random.Random(size)
    play_session(sessions[0], rng, rounds=2)
    services.round_draw(session=sessions[0], seed=3)


@pytest.mark.parametrize("size", [8, 40])
def test_standings_and_tables_take_constant_queries(
    client, competition, sessions, size, django_assert_max_num_queries
):
    _big_tournament(competition, sessions, size)
    entry = seated(sessions[0])[0].entry
    # session page: etag version, competition, players, rounds, games, seats (with hands),
    # clock round (+1 on the event's first page: its language, then cached; events/language.py)
    with django_assert_max_num_queries(10):
        assert client.get(url("session", competition, 1)).status_code == 200
    # overview: etag, competition, lot, qualifiers, seats, sessions(+2 prefetches), final
    with django_assert_max_num_queries(10):
        assert client.get(url("overview", competition)).status_code == 200
    # player: + its corrections
    with django_assert_max_num_queries(9):
        assert client.get(url("player", competition, entry.pk)).status_code == 200


def test_a_live_fragment_is_rendered_once_per_version(
    client, competition, drawn, django_assert_max_num_queries
):
    address = url("session", competition, 1)
    first = client.get(address, headers=HTMX)
    assert first.status_code == 200 and "<html" not in first.content.decode()
    # Another phone's poll: the ETag's version and the competition, then the shared fragment.
    with django_assert_max_num_queries(2):
        again = client.get(address, headers=HTMX)
    assert again.content == first.content
    services.round_start_clock(round=drawn.rounds.get())  # a write: a new version
    changed = client.get(address, headers=HTMX)
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]


# --- desk pages -------------------------------------------------------------------------------


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


def _result_data(game, squares, **extra):
    data = {"revision": game.revision}
    for seat, n in zip(game.seats.order_by("position"), squares, strict=True):
        data[f"squares_{seat.pk}"] = n
    data.update(extra)
    return data


def test_result_entry_saves_and_previews(desk_client, competition, drawn):
    game = Game.objects.filter(round__session=drawn).order_by("number").first()
    address = url("game_result", competition, game.pk)
    preview = desk_client.post(
        url("game_preview", competition, game.pk), _result_data(game, [0, 3, 3, 10]), headers=HTMX
    ).content.decode()
    assert "<html" not in preview and "1½" in preview and "-10" in preview
    seats = list(game.seats.order_by("position"))
    data = _result_data(game, [0, "", 3, 10])
    data[f"pieces_{seats[1].pk}"] = ["I1", "I2"]
    data[f"monomino_{seats[0].pk}"] = "on"
    response = desk_client.post(address, data)
    assert response.status_code == 302
    assert [s.score for s in game.seats.order_by("position")] == [5, -3, -3, -10]
    # The same page posted again holds an old revision: refused, the current result shown.
    stale = desk_client.post(address, data)
    assert stale.status_code == 409 and stale.context["stale"].code == "stale_result"


@pytest.mark.parametrize(
    "squares",
    [["x", 1, 2, 3], [-1, 1, 2, 3], [90, 1, 2, 3], [10**30, 1, 2, 3], ["", 1, 2, 3]],
)
def test_result_entry_rejects_hostile_input(desk_client, competition, drawn, squares):
    game = Game.objects.filter(round__session=drawn).first()
    response = desk_client.post(
        url("game_result", competition, game.pk), _result_data(game, squares)
    )
    assert response.status_code == 400
    assert not Seat.objects.filter(game=game, score__isnull=False).exists()
    html = response.content.decode()
    assert 'class="error"' in html


def test_result_entry_keeps_typed_values_and_refuses_monomino_with_squares(
    desk_client, competition, drawn
):
    game = Game.objects.filter(round__session=drawn).first()
    first = game.seats.order_by("position").first()
    data = _result_data(game, [7, 1, 2, 3], **{f"monomino_{first.pk}": "on"})
    response = desk_client.post(url("game_result", competition, game.pk), data)
    assert error_codes(response, f"monomino_{first.pk}") == {"monomino_with_squares"}
    assert 'value="7"' in response.content.decode()


def test_games_of_other_competitions_are_404(desk_client, competition, drawn, event):
    other = CompetitionFactory(event=event)
    assert desk_client.get(url("game_result", other, Game.objects.first().pk)).status_code == 404
    assert desk_client.get(url("game_result", competition, 99999)).status_code == 404


def test_a_correction_after_the_next_draw_asks_for_confirmation(desk_client, competition, drawn):
    play_round(drawn.rounds.get(), random.Random(4))
    services.round_draw(session=drawn, seed=2)
    game = Game.objects.get(round__session=drawn, round__number=1, number=1)
    address = url("game_result", competition, game.pk)
    assert "A later round was already drawn" in desk_client.get(address).content.decode()
    refused = desk_client.post(address, _result_data(game, [1, 2, 3, 4]))
    assert refused.status_code == 400 and error_codes(refused) == {"later_round_drawn"}
    ok = desk_client.post(address, _result_data(game, [1, 2, 3, 4], confirm="on"))
    assert ok.status_code == 302


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
        url("game_result", competition, game.pk), _result_data(game, [0, 1, 2, 3])
    )
    assert response.status_code == 302
    public = desk_client.get(url("overview", competition)).content.decode()
    assert "winner" in public and 'id="final-result"' in public


def test_starting_the_clock_tells_the_page_to_fetch_it(desk_client, competition, drawn):
    round_ = drawn.rounds.get()
    response = desk_client.post(url("round_start", competition, round_.pk), headers=HTMX)
    assert "blokusClock" in response["HX-Trigger"]


def test_an_admin_edit_of_a_hand_is_validated_and_rescored(client, competition, drawn):
    from django.contrib.auth import get_user_model

    from blokus.models import Hand

    game = Game.objects.filter(round__session=drawn).order_by("number").first()
    services.game_result_record(
        game=game, revision=0, hands=[services.HandInput(s.pk, 5) for s in game.seats.all()]
    )
    admin = get_user_model().objects.create_superuser("root", "", "pw-for-tests-only")
    totp.turn_on(admin)  # site staff open the admin with two-factor login only
    client.force_login(admin)
    hand = Hand.objects.filter(seat__game=game).order_by("seat__position").first()
    address = reverse("admin:blokus_hand_change", args=[hand.pk])
    assert client.get(address).status_code == 200
    before = Competition.objects.get(pk=competition.pk).version
    data = {"seat": hand.seat_id, "squares_left": 3, "monomino_last": "on", "pieces": "[]"}
    bad = client.post(address, data)
    assert bad.status_code == 200
    assert error_codes(bad, "monomino_last") == {"monomino_with_squares"}
    data = {"seat": hand.seat_id, "squares_left": 0, "pieces": "[]"}
    assert client.post(address, data).status_code == 302
    seat = Seat.objects.get(pk=hand.seat_id)
    assert (seat.score, seat.points) == (0, 3)
    assert Competition.objects.get(pk=competition.pk).version > before
    for name in ["sessionplayer", "qualificationlot", "hand"]:
        assert client.get(reverse(f"admin:blokus_{name}_changelist")).status_code == 200


def test_rounds_of_other_competitions_are_404(desk_client, competition, drawn, event):
    other = CompetitionFactory(event=event)
    round_ = drawn.rounds.get()
    assert desk_client.get(url("round_cards", other, round_.pk)).status_code == 404
    assert desk_client.post(url("round_start", other, round_.pk)).status_code == 404
    assert (
        desk_client.post(url("session_replace", competition, 1), {"seated": "x"}).status_code == 404
    )


def test_admin_refuses_seating_a_player_in_a_second_session(client, competition, seated_session):
    from django.contrib.auth import get_user_model

    played = seated(seated_session)[0]
    second = competition.sessions.get(number=2)
    sp = SessionPlayer.objects.create(session=second, entry=played.entry)
    admin = get_user_model().objects.create_superuser("root", "", "pw-for-tests-only")
    totp.turn_on(admin)  # site staff open the admin with two-factor login only
    client.force_login(admin)
    address = reverse("admin:blokus_sessionplayer_change", args=[sp.pk])
    data = {"session": second.pk, "entry": played.entry.pk, "role": "seated"}
    response = client.post(address, data)
    # Seating is read-only in the admin (corrected at the desk); the model still refuses it.
    assert response.status_code == 302
    assert SessionPlayer.objects.get(pk=sp.pk).role == "registered"
    sp.role = "seated"
    with pytest.raises(ValidationError) as refused:
        sp.full_clean()
    assert [e.code for e in refused.value.error_dict["role"]] == ["already_played"]


@pytest.mark.parametrize("size", [8, 40])
def test_the_session_desk_takes_constant_queries(
    desk_client, competition, sessions, size, django_assert_max_num_queries
):
    _big_tournament(competition, sessions, size)
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
