"""Blokus desk details: "Seat session…" only when four can play, the
competition desk's count agrees with the roll calls, a refused stale save keeps what was typed,
and plurals and numbers read right."""

from __future__ import annotations

import datetime as dt
import random

from django.utils import translation
from django.utils.functional import Promise

from blokus import services
from events.models import Entry, Game
from tests.support.blokus import HTMX, play_round, record, register, seated_round, small, url


def test_seat_session_is_offered_only_when_four_can_play(desk_client, event):
    competition = small(event)
    session = competition.sessions.get()
    players = register(competition, session, 5, check_in=3)
    page = desk_client.get(url("desk_session", competition, 1)).content.decode()
    assert "Seat session…" not in page and 'id="seat-not-yet"' in page
    services.session_check_in(session_player=players[3])
    page = desk_client.get(url("desk_session", competition, 1)).content.decode()
    assert "Seat session…" in page and 'id="seat-not-yet"' not in page


def test_the_competition_desk_counts_the_roll_call_check_ins(desk_client, event):
    competition = small(event, sessions=2)
    first, second = competition.sessions.order_by("number")
    register(competition, first, 6, check_in=5)
    register(competition, second, 4, check_in=3, prefix="Q")
    assert Entry.objects.filter(competition=competition, checked_in_at__isnull=False).count() == 8
    page = desk_client.get(competition.get_desk_url()).content.decode()
    assert "10 registered, 8 checked in" in page
    # Undoing a roll-call check-in undoes what it told the competition desk.
    late = first.blokus_players.filter(checked_in_at__isnull=False).order_by("roll_call").last()
    services.session_undo_check_in(session_player=late)
    page = desk_client.get(competition.get_desk_url()).content.decode()
    assert "10 registered, 7 checked in" in page


def test_a_refused_stale_save_keeps_what_was_typed_beside_the_stored_result(
    desk_client, eight_played
):
    competition, session, *_rest = eight_played
    game = Game.objects.get(round__session=session, number=1)
    game.refresh_from_db()
    opened_at = game.revision  # the second desk opens the form
    record(game, [4, 5, 6, 7])  # the first desk saves a correction meanwhile
    seats = list(game.seats.order_by("position"))
    typed = {"revision": opened_at}
    for seat, squares in zip(seats, [11, 12, 13, 14], strict=True):
        typed[f"squares_{seat.pk}"] = squares
    response = desk_client.post(url("game_result", competition, game.pk), typed)
    assert response.status_code == 409
    page = response.content.decode()
    for seat, squares in zip(seats, [11, 12, 13, 14], strict=True):
        assert f'name="squares_{seat.pk}"' in page
        assert response.context["form"][f"squares_{seat.pk}"].value() in (squares, str(squares))
    assert 'id="stored-result"' in page and "-4" in page and "4 squares left" in page
    # The form now carries the stored revision: saving again replaces it deliberately.
    again = dict(typed, revision=response.context["form"]["revision"].value())
    assert desk_client.post(url("game_result", competition, game.pk), again).status_code == 302
    assert sorted(game.seats.values_list("score", flat=True)) == [-14, -13, -12, -11]


def test_counts_meet_nouns_in_the_right_plural(desk_client, event):
    competition = small(event, sessions=2, rounds=2)
    first = competition.sessions.get(number=1)
    round_ = seated_round(competition, first, 4, seed=3)
    play_round(round_, random.Random(1))
    page = desk_client.get(url("desk", competition)).content.decode()
    assert "1 round drawn" in page and "1 rounds" not in page
    services.round_draw(session=first, seed=4)
    page = desk_client.get(url("desk", competition)).content.decode()
    assert "2 rounds drawn" in page
    assert "1 registered · 1 playing" not in page and "4 registered · 4 playing" in page


def test_the_session_page_shows_one_reserve_in_the_singular(desk_client, event):
    competition = small(event)
    session = competition.sessions.get()
    register(competition, session, 5)
    html = desk_client.get(url("session_seat", competition, 1), headers=HTMX).content.decode()
    assert "1 reserve" in html and "1 reserves" not in html


def test_a_swedish_page_shows_times_in_the_events_zone_with_its_name(desk_client, event):
    competition = small(event)
    session = competition.sessions.get()
    session.starts_at = dt.datetime(2026, 5, 6, 8, 0, tzinfo=dt.UTC)
    session.save()
    with translation.override("sv"):
        page = desk_client.get(url("desk", competition), headers={"Accept-Language": "sv"})
    html = page.content.decode()
    # 08:00 UTC is 10:00 in Stockholm (summer time), the zone named beside it.
    assert f"10:00 ({event.time_zone})" in html and "08:00" not in html
    assert 'datetime="2026-05-06T10:00:00+02:00"' in html


def test_no_refusal_speaks_in_rule_codes():
    """Rule ids (A-BLK-11, R-BLK-07) are for the rule book and the code, not for the desk: the
    refusals say what happened in words (the refusal's ``code`` stays machine-readable)."""
    import re as _re

    from blokus.services import common, final, players, results, rounds, sessions

    for module in (common, final, players, results, rounds, sessions):
        for name, value in vars(module).items():
            if name.isupper() and isinstance(value, str | Promise):
                assert not _re.search(r"[AR]-BLK-\d", str(value)), f"{module.__name__}.{name}"
