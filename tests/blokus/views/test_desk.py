from __future__ import annotations

import datetime as dt
import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation

from blokus import selectors, services
from blokus.models import Hand, SessionNotHeld, SessionPlayer
from events.errors import Stale
from events.models import Competition, Correction, Entry, Game, Round, Seat
from events.services import correction_undo
from events.signups.models import SignUp
from events.signups.services import lifecycle as signups
from tests.support.blokus import (
    FULL,
    HTMX,
    OPTION_SETTINGS,
    big_tournament,
    by_position,
    flashed_codes,
    last_hand,
    play_round,
    play_session,
    post_result,
    record,
    refused,
    register,
    result_data,
    result_fields,
    seat_players,
    seated,
    seated_round,
    shows_short,
    small,
    url,
    with_options,
)
from tests.support.factories import CompetitionFactory, EntryFactory
from tests.support.print_items import pdf_of
from tests.support.printing import text_of


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
        competition.get_desk_url(),
    ]:
        response = desk_client.get(address)
        assert response.status_code == 200, address
    html = desk_client.get(url("desk_session", competition, 1), headers=HTMX).content.decode()
    assert "<html" not in html and 'id="session-desk"' in html
    # The round's table cards are the print kit's tents now: the old address leads there.
    cards = desk_client.get(url("round_cards", competition, round_.pk))
    assert cards.status_code == 302
    assert cards["Location"] == (
        reverse("events:print_download", args=[competition.event.slug, competition.slug, "tents"])
        + "?scope=s1-r1"
    )
    tents = pdf_of(desk_client.get(cards["Location"]))
    assert "Table 3" in text_of(tents)


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
    # sessions' players, entries, clock, the session's corrections, the help badge's count
    with django_assert_max_num_queries(15):
        assert desk_client.get(url("desk_session", competition, 1)).status_code == 200
    # plus: sessions, lot, qualifiers, seats, final, the open-session check (one query)
    with django_assert_max_num_queries(18):
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


def test_the_final_card_and_overview_after_the_final_result(desk_client, client, event):
    competition = small(event)
    session = competition.sessions.get()
    seat_players(competition, session, 8)
    play_session(session, random.Random(5), rounds=1)
    final = services.final_seat(competition=competition, seed=1, lot_seed=1)
    game = Game.objects.get(round__session=final)
    record(game, [3, 1, 0, 9])
    round_id = game.round_id
    tent = desk_client.get(url("round_cards", competition, round_id), follow=True)
    assert "Final" in text_of(pdf_of(tent))
    # An admin removes a finalist's session record: the public page still answers.
    gone = game.seats.get(position=1).entry
    SessionPlayer.objects.filter(entry=gone).delete()
    rows = selectors.qualification_rows(competition)
    assert gone.pk not in {r.entry.pk for r in rows}
    view = selectors.final_view(competition, rows)
    assert [seat.entry.pk for _, seat in view.placed][0] == game.seats.get(position=3).entry_id
    assert len(view.placed) == 4
    assert client.get(url("overview", competition)).status_code == 200
    assert pdf_of(desk_client.get(url("round_cards", competition, round_id), follow=True))


def _seats(competition: Competition) -> list[tuple[int, str]]:
    return list(
        Seat.objects.filter(
            game__round__session__competition=competition, game__round__session__kind="final"
        )
        .order_by("position")
        .values_list("entry_id", "colour")
    )


def test_the_seat_button_is_hidden_until_every_session_is_played(desk_client, event):
    competition = small(event)
    session = competition.sessions.get()
    page = desk_client.get(url("desk", competition)).content.decode()
    assert "Seat the final…" not in page and "has not" in page
    # Asking for the preview anyway shows why, not a rule code, and seats nothing.
    preview = desk_client.get(url("final_seat", competition)).content.decode()
    assert 'id="final-preview"' not in preview and "A-BLK" not in preview
    register(competition, session, 3)
    services.session_not_held(session=session, reason="Three came.")
    page = desk_client.get(url("desk", competition)).content.decode()
    assert 'id="no-final"' in page and "there is no final." in page
    assert "Seat the final…" not in page and "A-BLK" not in page


def test_the_preview_shows_who_qualifies_and_the_draw_then_seats_exactly_that(
    desk_client, eight_played
):
    competition, _session, a, b = eight_played
    assert "Seat the final…" in desk_client.get(url("desk", competition)).content.decode()
    response = desk_client.get(url("final_seat", competition))
    page = response.content.decode()
    assert response.status_code == 200 and 'id="final-preview"' in page
    plan = response.context["final_preview"]
    assert {row.entry.pk for row in plan.finalists} == {a[0], a[1], b[0], b[1]}
    assert plan.lot_drawn_now and plan.lot_decides  # A1 and B1 are equal: the lot decides
    # Nothing was written by looking, and looking again shows the same draw.
    assert not _seats(competition) and not selectors.competition_lot(competition)
    again = desk_client.get(url("final_seat", competition)).context["final_preview"]
    assert [(r.entry.pk, c) for r, c in again.colours] == [(r.entry.pk, c) for r, c in plan.colours]
    for row, colour in plan.colours:
        assert row.entry.player.name in page and f"c-{colour}" in page
    confirmed = desk_client.post(url("final_seat", competition), {"version": plan.version})
    assert confirmed.status_code == 302
    assert _seats(competition) == [(r.entry.pk, c) for r, c in plan.colours]
    lot = selectors.competition_lot(competition)
    assert lot is not None and lot.seed == plan.lot_seed
    # A second confirmation (a double click) seats nothing more.
    twice = desk_client.post(url("final_seat", competition), {"version": plan.version})
    assert twice.status_code == 302 and len(_seats(competition)) == 4


def test_a_result_changed_after_the_preview_refuses_the_stale_confirmation(
    desk_client, eight_played
):
    competition, session, a, _b = eight_played
    plan = desk_client.get(url("final_seat", competition)).context["final_preview"]
    game = Game.objects.get(round__session=session, number=1)
    record(game, [9, 0, 1, 2])  # another desk corrects game 1: A2 now leads it
    stale = desk_client.post(url("final_seat", competition), {"version": plan.version})
    assert stale.status_code == 409 and not _seats(competition)
    page = stale.content.decode()
    assert 'data-code="final_stale"' in page and 'id="final-preview"' in page
    fresh = stale.context["final_preview"]
    assert fresh.version != plan.version
    assert (
        desk_client.post(url("final_seat", competition), {"version": fresh.version}).status_code
        == 302
    )
    assert len(_seats(competition)) == 4


def test_a_post_without_a_preview_only_shows_the_preview(desk_client, eight_played):
    competition, *_rest = eight_played
    response = desk_client.post(url("final_seat", competition))
    assert response.status_code == 200 and 'id="final-preview"' in response.content.decode()
    assert not _seats(competition)


def test_a_scorekeeper_is_not_offered_the_final(client, eight_played, django_user_model):
    competition, *_rest = eight_played
    keeper = django_user_model.objects.create(username="keeper")
    competition.event.organisers.add(keeper, through_defaults={"role": "scorekeeper"})
    client.force_login(keeper)
    page = client.get(url("desk", competition))
    assert page.status_code == 200 and "Seat the final…" not in page.content.decode()
    assert client.get(url("final_seat", competition)).status_code == 403


@pytest.mark.django_db
def test_a_waitlisted_player_checked_in_at_roll_call_becomes_a_reserve(
    desk_client, competition, sessions
):
    session = sessions[0]
    register(competition, session, 12)  # three full tables checked in
    now = timezone.now()
    window = signups.window_set(
        competition=competition,
        opens_at=now - dt.timedelta(days=9),
        closes_at=now + dt.timedelta(days=1),
        cap=1,
    )
    seated = signups.signup_confirm(
        sign_up=signups.signup_submit(
            window=window, name="Sam Seat", email="sam@example.org", session=session
        )
    )
    waiting = [
        signups.signup_confirm(
            sign_up=signups.signup_submit(
                window=window, name=name, email=f"{name[:3]}@example.org", session=session
            )
        )
        for name in ("Wim Wait", "Ada Wait")
    ]
    assert seated.status == "confirmed" and {w.status for w in waiting} == {"waitlisted"}

    page = desk_client.get(url("desk_session", competition, session.number))
    assert b"Sign-up waitlist" in page.content and b"Wim Wait" in page.content

    answer = desk_client.post(
        url("session_waitlisted", competition, session.number),
        {"sign_up": waiting[0].pk},
        headers=HTMX,
    )
    assert answer.status_code == 200
    assert b"Wim Wait checked in from the waitlist." in answer.content
    waiting[0].refresh_from_db()
    assert waiting[0].status == "confirmed" and waiting[0].entry is not None
    view = selectors.session_view(session)
    assert view.checked_in[-1].entry == waiting[0].entry  # after those already here
    plan = view.plan
    assert [sp.entry for sp in plan.reserves] == [waiting[0].entry]

    # Again, or someone of another competition: refused in words, nothing written.
    again = desk_client.post(
        url("session_waitlisted", competition, session.number),
        {"sign_up": waiting[0].pk},
        headers=HTMX,
    )
    assert b"is not on this competition" in again.content
    assert (
        desk_client.post(
            url("session_waitlisted", competition, session.number), {"sign_up": "999999"}
        ).status_code
        == 404
    )
    assert SignUp.objects.filter(status="confirmed").count() == 2
    services.session_seat(session=session)


def test_the_desk_keeps_the_full_name(short_named, desk_client):
    competition, session, entry, game = short_named
    for address in (
        url("desk", competition),
        url("desk_session", competition, session.number),
        url("game_result", competition, game.pk),
        reverse(
            "events:competition_export",
            args=[competition.event.slug, competition.slug, "standings", "csv"],
        ),
    ):
        response = desk_client.get(address)
        assert response.status_code == 200, address
        assert FULL in response.content.decode(), address
    # The printed table cards lie on the tables: the public name.
    cards = desk_client.get(url("round_cards", competition, game.round_id), follow=True)
    shows_short(text_of(pdf_of(cards)), "cards")


def entry_action(desk_client, entry, action):
    response = desk_client.post(reverse("events:entry_action", args=[entry.pk, action]))
    assert response.status_code == 302


def test_the_official_bonus_chosen_in_the_settings_scores_the_tables(desk_client, event):
    competition = with_options(event)
    settings_url = reverse(
        "events:competition_settings", args=[competition.event.slug, competition.slug]
    )
    form = desk_client.get(competition.get_desk_url()).content.decode()
    assert 'name="official_bonus"' in form and 'name="final_replays"' in form
    assert 'name="three_handed_after_dropout"' in form
    response = desk_client.post(settings_url, {**OPTION_SETTINGS, "official_bonus": "on"})
    assert response.status_code == 302
    competition.refresh_from_db()
    assert competition.options.official_bonus and competition.options.final_replays == 0
    session = competition.sessions.get()
    register(competition, session, 4)
    assert desk_client.post(url("session_seat", competition, 1)).status_code == 302
    assert desk_client.post(url("round_draw", competition, 1)).status_code == 302
    game = Game.objects.get(round__session=session)
    preview = desk_client.post(
        url("game_preview", competition, game.pk), result_data(game, [0, 0, 3, 10], [0])
    ).content.decode()
    assert "+20" in preview and "+15" in preview
    post_result(desk_client, competition, game, [0, 0, 3, 10], monomino=[0])
    assert [s.score for s in by_position(game)] == [20, 15, -3, -10]
    page = desk_client.get(url("session", competition, 1)).content.decode()
    assert "+20" in page and "+15" in page
    overview = desk_client.get(url("overview", competition)).content.decode()
    assert "+20 with the monomino last (official)" in overview


def test_a_withdrawn_player_reinstated_at_the_desk_plays_again_from_the_next_round(
    desk_client, client, event
):
    competition = with_options(event, rounds_per_session=3)
    session = competition.sessions.get()
    first = seated_round(competition, session, 8)
    for game in first.games.all():
        record(game, [0, 1, 2, 3])
    gone = SessionPlayer.objects.filter(session=session, role="seated").first()
    entry_action(desk_client, gone.entry, "withdraw")
    assert desk_client.post(url("round_draw", competition, 1)).status_code == 302
    second = Round.objects.get(session=session, number=2)
    mine = Seat.objects.get(game__round=second, entry=gone.entry).game
    # out in round 2: the desk's form takes only 89 squares for them
    squares = [89 if s.entry_id == gone.entry_id else 4 for s in by_position(mine)]
    post_result(desk_client, competition, mine, squares)
    for game in second.games.exclude(pk=mine.pk):
        record(game, [0, 1, 2, 3])
    gone.refresh_from_db()
    assert gone.dropped_after_round == 1 and gone.dropped_by_withdrawal
    entry_action(desk_client, gone.entry, "reinstate")
    assert desk_client.post(url("round_draw", competition, 1)).status_code == 302
    gone.refresh_from_db()
    assert (gone.dropped_after_round, gone.back_from_round) == (1, 3)
    assert not gone.has_dropped_out
    # round 2 stays as recorded: last at the table, no points
    seat = Seat.objects.get(game__round=second, entry=gone.entry)
    assert seat.score == -89 and seat.points == 0
    # round 3: playing again; an ordinary hand is taken
    third = Seat.objects.get(game__round__session=session, game__round__number=3, entry=gone.entry)
    post_result(desk_client, competition, third.game, [0, 1, 2, 3])
    seat = Seat.objects.get(pk=third.pk)
    assert seat.points > 0 or seat.position == 4
    page = client.get(url("session", competition, 1)).content.decode()
    seats = [
        line
        for line in page.splitlines()
        if f'data-player="{gone.entry_id}"' in line and '<tr class="' in line
    ]
    assert len(seats) == 3 and sum('class="dropped' in line for line in seats) == 1
    desk = desk_client.get(url("desk_session", competition, 1)).content.decode()
    assert "back from round 3" in desk


def test_the_session_desk_brings_a_player_back_from_the_next_round(desk_client, event):
    competition = with_options(event, rounds_per_session=3)
    session = competition.sessions.get()
    seated_round(competition, session, 8)
    sp = SessionPlayer.objects.filter(session=session, role="seated").first()

    def act(action):
        address = url("session_player_action", competition, 1, sp.pk, action)
        assert desk_client.post(address).status_code == 302
        sp.refresh_from_db()

    act("drop_out")
    assert sp.dropped_after_round == 1
    act("come_back")  # no round drawn while out: the drop-out is simply undone
    assert sp.dropped_after_round is None and sp.back_from_round is None
    act("drop_out")
    for game in Round.objects.get(session=session, number=1).games.all():
        record(game, [0, 1, 2, 3])
    services.round_draw(session=session, seed=2)
    for game in Round.objects.get(session=session, number=2).games.all():
        squares = [89 if s.entry_id == sp.entry_id else 5 for s in by_position(game)]
        record(game, squares)
    act("come_back")
    assert (sp.dropped_after_round, sp.back_from_round) == (1, 3)
    assert not sp.has_dropped_out
    # a second click finds them playing: refused with a message, nothing changes
    response = desk_client.post(url("session_player_action", competition, 1, sp.pk, "come_back"))
    assert response.status_code == 302
    sp.refresh_from_db()
    assert sp.back_from_round == 3


def test_after_a_drop_out_the_rest_play_three_handed_when_the_option_is_on(
    desk_client, client, event
):
    competition = with_options(event, rounds_per_session=2, three_handed_after_dropout=True)
    session = competition.sessions.get()
    first = seated_round(competition, session, 8)
    for game in first.games.all():
        record(game, [0, 1, 2, 3])
    sp = SessionPlayer.objects.filter(session=session, role="seated").first()
    address = url("session_player_action", competition, 1, sp.pk, "drop_out")
    assert desk_client.post(address).status_code == 302
    assert desk_client.post(url("round_draw", competition, 1)).status_code == 302
    second = Round.objects.get(session=session, number=2)
    sizes = [g.seats.count() for g in second.games.order_by("number")]
    assert sizes == [4, 3]
    assert not Seat.objects.filter(game__round=second, entry=sp.entry).exists()
    three = second.games.get(number=2)
    assert sorted(s.colour for s in three.seats.all()) == ["blue", "red", "yellow"]
    post_result(desk_client, competition, three, [0, 4, 4])
    assert [s.points for s in by_position(three)] == [2, pytest.approx(0.5), pytest.approx(0.5)]
    page = client.get(url("session", competition, 1)).content.decode()
    assert "needs attention" not in page


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
    assert response.status_code == 200 and response.context["error_code"] == "round_one_started"
    assert Seat.objects.filter(game__round=round_, entry=out.entry).exists()


def test_the_desk_declares_a_session_not_held(desk_client, event):
    competition = small(event, sessions=2)
    first, second = competition.sessions.order_by("number")
    seat_players(competition, first, 4)
    play_session(first, random.Random(4), rounds=1)
    register(competition, second, 3, prefix="Q")
    page = desk_client.get(url("desk_session", competition, 2)).content.decode()
    assert "Declare not held" in page and "Only 3 checked in at the roll call." in page
    address = url("session_not_held", competition, 2)
    empty = desk_client.post(address, {"reason": ""}, headers=HTMX)
    assert empty.status_code == 200 and empty.context["error_code"] == "reason_required"
    assert desk_client.post(address, {"reason": "Only three came."}).status_code == 302
    desk = desk_client.get(url("desk", competition)).content.decode()
    assert "Only three came." in desk and "Seat the final" in desk
    public = desk_client.get(url("overview", competition)).content.decode()
    assert "not held" in public and "Only three came." in public
    session_page = desk_client.get(url("session", competition, 2)).content.decode()
    assert "This session is not held: Only three came." in session_page
    assert desk_client.post(address, {"undo": "1"}, headers=HTMX).status_code == 200
    assert not SessionNotHeld.objects.exists()


def _pages(client, competition, entry_id) -> list:
    return [
        client.get(url("overview", competition)),
        client.get(url("session", competition, 1)),
        client.get(url("player", competition, entry_id)),
    ]


def test_a_desk_correction_is_on_the_trail_and_undone_from_the_desk(
    desk_client, organiser, client, two_rounds
):
    competition, session, game = two_rounds
    record(game, [0, 1, 3, 2], confirm_later_round=True, by=organiser)
    corrections = list(Correction.objects.select_related("entry__player"))
    assert {c.source for c in corrections} == {"desk"}
    changed = [c for c in corrections if c.before.startswith("-3")]
    assert len(changed) == 1 and changed[0].after == "-2 (1 QP)"

    desk = desk_client.get(url("desk_session", competition, 1)).content.decode()
    assert "alice" in desk and "Undo" in desk

    client.logout()
    public = client.get(url("session", competition, 1)).content.decode()
    assert "corrected" in public and 'id="corrected-note"' in public and "alice" not in public
    player_page = client.get(url("player", competition, changed[0].entry_id)).content.decode()
    assert "-3 (0 QP) → -2 (1 QP)" in player_page and "alice" not in player_page

    client.force_login(organiser)
    response = client.post(reverse("events:correction_undo", args=[changed[0].pk]))
    assert response.status_code == 302
    assert Seat.objects.get(pk=last_hand(game).seat_id).score == -3
    undo = Correction.objects.get(reverts=changed[0])
    assert undo.source == "undo" and undo.after == "-3 (0 QP)"
    # another record of the same correction can no longer be undone: the table changed since
    sibling = next(c for c in corrections if c.pk != changed[0].pk)
    with refused("correction_stale", Stale):
        correction_undo(correction=sibling, by=organiser)


@pytest.mark.parametrize(
    "breakage",
    ["three_seats", "pieces_mismatch", "missing_hand", "no_points", "score_mismatch", "raw_sql"],
)
def test_inconsistent_stored_rows_show_needs_attention_never_a_500(
    client, desk_client, two_rounds, breakage
):
    competition, session, game = two_rounds
    hand = last_hand(game)
    entry_id = hand.seat.entry_id
    if breakage == "three_seats":
        Hand.objects.filter(seat__game=game, seat__position=4).delete()
        Seat.objects.filter(game=game, position=4).delete()
        entry_id = Seat.objects.filter(game=game).first().entry_id
    elif breakage == "pieces_mismatch":
        Hand.objects.filter(pk=hand.pk).update(pieces=["I1"])
    elif breakage == "missing_hand":
        Hand.objects.filter(pk=hand.pk).delete()
    elif breakage == "no_points":
        Seat.objects.filter(pk=hand.seat_id).update(points=None, score=None)
    elif breakage == "score_mismatch":
        # A score Blokus allows (the database checks that) but not the one the hand gives.
        wrong = -89 if hand.seat.score != -89 else -88
        Seat.objects.filter(pk=hand.seat_id).update(score=wrong)
    else:
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {Hand._meta.db_table} SET pieces = %s WHERE id = %s", ['"oops"', hand.pk]
            )
    Competition.objects.filter(pk=competition.pk).update(version=999)
    for page in _pages(client, competition, entry_id):
        assert page.status_code == 200
    assert "needs attention" in client.get(url("session", competition, 1)).content.decode()
    desk = desk_client.get(url("desk_session", competition, 1))
    assert desk.status_code == 200 and 'id="needs-attention"' in desk.content.decode()
    result_page = desk_client.get(url("game_result", competition, game.pk))
    assert result_page.status_code == 200
