"""Sjoelen corrections: one trail (``events.Correction``) for the desk, admin and undo; the
1st-place warning (A-SJ-13); stored rows that break the rules never crash a page (A-SJ-14)."""

from __future__ import annotations

from contextlib import contextmanager

import pytest
from django.db import connection
from django.urls import reverse

from events.errors import Conflict, Refused, Stale
from events.models import Competition, Correction
from events.services import correction_undo
from shuffleboard import selectors, services
from shuffleboard.models import Turn
from tests.support.factories import UserFactory
from tests.support.shuffleboard import (
    HTMX,
    PlayingEntryFactory,
    SjoelenFactory,
    gates,
    sjoelen_night,
    url,
)


def version(competition):
    return Competition.objects.get(pk=competition.pk).version


# --- the desk writes the trail, undo puts it back ----------------------------------------------


def test_a_desk_correction_is_recorded_and_undone_through_the_same_service(
    desk_client, played, organiser
):
    competition = played[0].competition
    turn = Turn.objects.get(entry=played[0], number=1)
    before = version(competition)
    desk_client.post(url("turn", competition, turn.pk), gates(0, 0, 0, 30, revision=1))
    correction = Correction.objects.get()
    assert (correction.item, correction.before, correction.after) == ("Game 1", "116", "120")
    assert (correction.entry, correction.source, correction.corrected_by) == (
        played[0],
        "desk",
        organiser,
    )
    assert correction.payload["before"]["counts"] == [5, 9, 5, 7]
    assert version(competition) == before + 1

    response = desk_client.post(reverse("events:correction_undo", args=[correction.pk]))
    assert response.status_code == 302
    turn.refresh_from_db()
    assert (turn.counts, turn.score, turn.revision) == ((5, 9, 5, 7), 116, 3)
    undo = Correction.objects.get(reverts=correction)
    assert (undo.source, undo.before, undo.after) == ("undo", "120", "116")
    assert version(competition) == before + 2
    with pytest.raises(Conflict):
        correction_undo(correction=correction, by=organiser)


def test_an_undo_is_refused_when_the_game_changed_again(played, organiser):
    turn = Turn.objects.get(entry=played[0], number=1)
    services.turn_correct(turn=turn, revision=1, counts=(0, 0, 0, 30), entered_by=organiser)
    services.turn_correct(turn=turn, revision=2, counts=(0, 0, 0, 29), entered_by=organiser)
    first = Correction.objects.order_by("pk").first()
    with pytest.raises(Stale):
        correction_undo(correction=first, by=organiser)
    assert Turn.objects.get(pk=turn.pk).counts == (0, 0, 0, 29)
    assert not Correction.objects.filter(source="undo").exists()


def test_a_desk_removal_is_recorded_and_undone(desk_client, played, organiser):
    competition = played[0].competition
    turn = Turn.objects.get(entry=played[2], number=1)
    desk_client.post(url("turn_delete", competition, turn.pk), {"revision": 1, "sure": "1"})
    correction = Correction.objects.get()
    assert (correction.item, correction.before, correction.after) == ("Game 1", "20", "removed")
    assert not Turn.objects.filter(entry=played[2]).exists()
    # the desk player page shows the trail with who and Undo; the public page without who
    desk = desk_client.get(url("desk_player", competition, played[2].pk)).content.decode()
    assert "Game 1 of Mari Kask corrected: 20 → removed" in desk and "alice" in desk
    assert "Undo" in desk
    public = desk_client.get(url("player", competition, played[2].pk)).content.decode()
    assert "Game 1 of Mari Kask corrected: 20 → removed" in public
    assert "alice" not in public and "Undo" not in public
    standings = desk_client.get(url("standings", competition)).content.decode()
    assert "20 → removed" in standings and "alice" not in standings
    correction_undo(correction=correction, by=organiser)
    restored = Turn.objects.get(entry=played[2], number=1)
    assert (restored.counts, restored.board, restored.score) == ((1, 1, 1, 1), 3, 20)


def test_undo_is_refused_once_the_game_slot_is_taken_again(played, organiser):
    turn = Turn.objects.get(entry=played[2], number=1)
    services.turn_delete(turn=turn, revision=1, by=organiser)
    services.turn_record(entry=played[2], number=1, counts=(0, 0, 0, 1))
    with pytest.raises(Stale):
        correction_undo(correction=Correction.objects.get(), by=organiser)


def test_the_score_entry_page_shows_the_trail_with_undo(desk_client, played):
    competition = played[0].competition
    turn = Turn.objects.get(entry=played[1], number=2)
    desk_client.post(url("turn", competition, turn.pk), gates(5, 9, 5, 6, revision=1))
    html = desk_client.get(url("entry", competition)).content.decode()
    assert "Game 2 of Jüri Tamm corrected: 116 → 112" in html and "Undo" in html


# --- warn before rewriting history (A-SJ-13) ------------------------------------------------


@pytest.fixture
def final(event):
    """Two games each, all entered: Anna 236 is 1st, Bert 232 2nd."""
    competition, (anna, bert) = sjoelen_night(
        {
            "Anna": [(7, 7, 7, 9), (0, 0, 0, 22)],  # 148 + 88
            "Bert": [(5, 9, 5, 7), (5, 9, 5, 7)],  # 116 + 116
        },
        event=event,
        settings={"games": 2, "boards": 2},
    )
    return competition, anna, bert


def test_a_desk_correction_that_moves_first_place_asks_first(desk_client, final):
    competition, anna, _ = final
    turn = Turn.objects.get(entry=anna, number=2)
    page = url("turn", competition, turn.pk)
    asked = desk_client.post(page, gates(0, 0, 0, 20, revision=1), headers=HTMX).content.decode()
    assert "Anna moves from 1st to 2nd" in asked and "Bert moves from 2nd to 1st" in asked
    assert 'name="confirm"' in asked
    assert Turn.objects.get(pk=turn.pk).score == 88
    # a correction that leaves 1st place alone needs no confirmation
    quiet = desk_client.post(page, gates(0, 0, 0, 21, revision=1), headers=HTMX).content.decode()
    assert "Corrected" in quiet and "moves from" not in quiet
    desk_client.post(page, gates(0, 0, 0, 20, revision=2, confirm="1"))
    assert Turn.objects.get(pk=turn.pk).score == 80
    assert selectors.standings_for_competition(competition).rows[0].name == "Bert"


def test_a_desk_removal_that_moves_first_place_asks_first(desk_client, final):
    competition, anna, _ = final
    turn = Turn.objects.get(entry=anna, number=1)
    sure = {"revision": 1, "sure": "1"}
    asked = desk_client.post(url("turn_delete", competition, turn.pk), sure)
    assert asked.status_code == 200
    assert "Anna moves from 1st to 2nd" in asked.content.decode()
    assert Turn.objects.filter(pk=turn.pk).exists()
    desk_client.post(url("turn_delete", competition, turn.pk), {**sure, "confirm": "1"})
    assert not Turn.objects.filter(pk=turn.pk).exists()


def test_the_service_refuses_an_unconfirmed_first_place_change(final):
    _, anna, _ = final
    turn = Turn.objects.get(entry=anna, number=2)
    with pytest.raises(Refused) as refused:
        services.turn_correct(turn=turn, revision=1, counts=(0, 0, 0, 0))
    assert refused.value.code == "confirm_first_place"


def test_no_warning_while_games_are_still_to_play(event):
    competition = SjoelenFactory(event=event, settings={"games": 3, "boards": 2})
    anna = PlayingEntryFactory(competition=competition, player__name="Anna")
    PlayingEntryFactory(competition=competition, player__name="Bert")
    turn = services.turn_record(entry=anna, number=1, counts=(7, 7, 7, 9))
    services.turn_correct(turn=turn, revision=1, counts=(0, 0, 0, 0))  # no confirmation asked
    assert Turn.objects.get(pk=turn.pk).score == 0


# --- admin: the same service, the trail, the warning ---------------------------------------


@pytest.fixture
def admin_client(db, client):
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    return client


def admin_data(turn, **changes):
    data = {"entry": turn.entry_id, "number": turn.number, "board": turn.board or ""}
    data.update({f"c{v}": getattr(turn, f"c{v}") for v in (1, 2, 3, 4)})
    data.update({f"b{v}": 0 for v in (1, 2, 3, 4)})
    data.update({"max_after": "", "seen_revision": turn.revision})
    return {**data, **changes}


def test_an_admin_change_is_checked_beside_the_field_and_recorded(admin_client, played):
    competition = played[0].competition
    turn = Turn.objects.get(entry=played[0], number=1)
    change = reverse("admin:shuffleboard_turn_change", args=[turn.pk])
    page = admin_client.get(change).content.decode()
    assert "Game 1 of Õie Sööt" in page
    refused = admin_client.post(change, admin_data(turn, c1=20, c4=20))
    html = refused.content.decode()
    assert refused.status_code == 200
    assert "There are only 30 discs, but these counts add up to 54." in html
    assert "Constraint" not in html and "sjoelen_turn" not in html
    assert 'class="form-row errors' in html or "errorlist" in html
    assert Turn.objects.get(pk=turn.pk).score == 116
    before = version(competition)
    assert admin_client.post(change, admin_data(turn, c1=0, c2=0, c3=0, c4=30)).status_code == 302
    turn.refresh_from_db()
    assert (turn.score, turn.revision) == (120, 2)
    correction = Correction.objects.get()
    assert (correction.source, correction.before, correction.after) == ("admin", "116", "120")
    assert correction.corrected_by.username == "root"
    assert version(competition) == before + 1
    # a page drawn before that change is stale: a form error, nothing saved
    stale = admin_client.post(change, admin_data(turn, c4=29, seen_revision=1))
    assert stale.status_code == 200 and "changed this game meanwhile" in stale.content.decode()
    assert Turn.objects.get(pk=turn.pk).score == 120


def test_admin_add_and_delete_are_recorded(admin_client, played):
    entry = played[3]
    add = reverse("admin:shuffleboard_turn_add")
    data = {"entry": entry.pk, "number": 4, "board": "", "c1": 5, "c2": 9, "c3": 5, "c4": 7}
    data.update({"max_after": "", "b1": 0, "b2": 0, "b3": 0, "b4": 0})
    assert admin_client.post(add, data).status_code == 302
    turn = Turn.objects.get(entry=entry, number=4)
    added = Correction.objects.get()
    assert (added.before, added.after, added.source) == ("–", "116", "admin")
    delete = reverse("admin:shuffleboard_turn_delete", args=[turn.pk])
    confirm = admin_client.get(delete).content.decode()
    assert "Toomas Saar, game 4: 116 → removed" in confirm
    assert admin_client.post(delete, {"post": "yes"}).status_code == 302
    assert not Turn.objects.filter(pk=turn.pk).exists()
    removed = Correction.objects.order_by("-pk").first()
    assert (removed.before, removed.after) == ("116", "removed")


def test_admin_bulk_delete_records_each_game(admin_client, played):
    competition = played[0].competition
    before = version(competition)
    turns = list(Turn.objects.filter(entry=played[0]))
    changelist = reverse("admin:shuffleboard_turn_changelist")
    data = {"action": "delete_selected", "_selected_action": [t.pk for t in turns]}
    confirm = admin_client.post(changelist, data).content.decode()
    assert "Õie Sööt, game 1: 116 → removed" in confirm
    admin_client.post(changelist, {**data, "post": "yes"})
    assert not Turn.objects.filter(entry=played[0]).exists()
    assert Correction.objects.filter(after="removed").count() == 2
    assert version(competition) > before


def test_an_admin_change_of_first_place_in_a_finished_competition_needs_a_tick(admin_client, final):
    competition, anna, _ = final
    services.competition_finish(competition=competition)
    turn = Turn.objects.get(entry=anna, number=2)
    change = reverse("admin:shuffleboard_turn_change", args=[turn.pk])
    asked = admin_client.post(change, admin_data(turn, c4=20)).content.decode()
    assert "Anna moves from 1st to 2nd" in asked
    assert Turn.objects.get(pk=turn.pk).score == 88
    assert admin_client.post(change, admin_data(turn, c4=20, confirm="on")).status_code == 302
    assert Turn.objects.get(pk=turn.pk).score == 80
    # deleting Bert's game (Anna back to 1st) shows the warning on Django's confirmation page
    best = Turn.objects.get(entry=final[2], number=1)
    page = admin_client.get(reverse("admin:shuffleboard_turn_delete", args=[best.pk]))
    assert "this changes the final standings" in page.content.decode()


def test_the_admin_list_names_the_games_and_survives_hostile_filters(admin_client, played):
    changelist = reverse("admin:shuffleboard_turn_changelist")
    html = admin_client.get(changelist).content.decode()
    assert "LinCon 2026" in html and "Õie Sööt" in html and "Sjoelen" in html
    assert "Sjoelen games" in html or "sjoelen games" in html.lower()
    hostile = ["\x00", "-1", "abc", "9" * 30, "1'--"]
    for value in hostile:
        for name in (
            "game",
            "entry__competition__id__exact",
            "entry__competition__event__id__exact",
        ):
            answer = admin_client.get(changelist, {name: value}).status_code
            assert answer in ((400,) if "\x00" in value else (200, 302))  # a NUL: refused
        assert admin_client.get(changelist, {"q": value}).status_code == (
            400 if "\x00" in value else 200
        )
    assert "Jüri" in admin_client.get(changelist, {"q": "Jüri"}).content.decode()
    turn = Turn.objects.get(entry=played[0], number=1)
    response = admin_client.get(reverse("admin:shuffleboard_turn_change", args=[turn.pk]))
    assert url("player", played[0].competition, played[0].pk) in response.content.decode()


@pytest.mark.parametrize(
    "changes",
    [
        {"c1": ""},
        {"c1": "-5"},
        {"c1": "abc"},
        {"c1": "99999999"},
        {"c1": "\x00"},
        {"b4": "2"},
        {"max_after": "9"},
        {"number": "0"},
        {"number": "11"},
        {"number": "2"},  # already entered
        {"entry": "999999"},
        {"entry": "abc"},
        {"entry": "9" * 30},
        {"board": "-1"},
        {"seen_revision": "x"},
    ],
)
def test_hostile_admin_values_never_save_an_impossible_game(admin_client, played, changes):
    turn = Turn.objects.get(entry=played[0], number=1)
    change = reverse("admin:shuffleboard_turn_change", args=[turn.pk])
    response = admin_client.post(change, admin_data(turn, **changes))
    assert response.status_code in (200, 302, 400)  # 400: Django refuses a NUL byte itself
    assert "Constraint" not in response.content.decode()
    stored = Turn.objects.get(pk=turn.pk)
    assert stored.attention is None and selectors.game_rows(played[0].competition)
    assert all(row.attention is None for row in selectors.game_rows(played[0].competition))
    assert stored.number == 1 and stored.score == 116
    assert admin_client.get(url("standings", played[0].competition)).status_code == 200


# --- stored rows that break the rules (A-SJ-14) -----------------------------------------------


@contextmanager
def without_checks():
    """Write as an old backup without the database checks could have: the test's transaction
    rolls the dropped checks back (PostgreSQL); SQLite ignores them meanwhile."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # no pending checks on the table
            cursor.execute(
                "SELECT conname FROM pg_constraint WHERE conrelid = 'shuffleboard_turn'::regclass "
                "AND contype = 'c'"
            )
            for (name,) in cursor.fetchall():
                cursor.execute(f'ALTER TABLE shuffleboard_turn DROP CONSTRAINT "{name}"')
            cursor.execute("SET CONSTRAINTS ALL DEFERRED")
            yield
        else:
            cursor.execute("PRAGMA ignore_check_constraints = 1")
            try:
                yield
            finally:
                cursor.execute("PRAGMA ignore_check_constraints = 0")


@pytest.mark.parametrize(
    "broken",
    [
        {"score": 999},  # the score is not what the counts give
        {"c1": 40},  # more than 30 discs
        {"c1": 40, "score": 200},
        {"b4": 2},  # bonus discs without the rule
    ],
)
def test_pages_never_fail_on_a_stored_row_that_breaks_the_rules(desk_client, played, broken):
    competition = played[0].competition
    turn = Turn.objects.get(entry=played[0], number=1)
    with without_checks():
        Turn.objects.filter(pk=turn.pk).update(**broken)
    public = ["standings", "rota"]
    for name in public:
        assert desk_client.get(url(name, competition)).status_code == 200
    page = desk_client.get(url("player", competition, played[0].pk)).content.decode()
    assert "needs attention" in page
    standings = selectors.standings_for_competition(competition)
    row = next(r for r in standings.rows if r.entry_id == played[0].pk)
    assert (row.total, row.games_played) == (148, 1)  # not counted
    assert [a.number for a in standings.attention] == [1]
    assert "not counted yet" in desk_client.get(url("standings", competition)).content.decode()
    assert desk_client.get(competition.get_absolute_url()).status_code == 200
    assert desk_client.get(competition.event.get_absolute_url()).status_code == 200
    # the organiser sees it on the desk, with a link to fix it
    for page_url in (
        url("entry", competition),
        url("desk_player", competition, played[0].pk),
        url("turn", competition, turn.pk),
        competition.get_desk_url(),
    ):
        response = desk_client.get(page_url)
        assert response.status_code == 200, page_url
        assert "Needs attention" in response.content.decode(), page_url
    # a correction fixes it; its undo would put the broken row back, so it is refused
    desk_client.post(url("turn", competition, turn.pk), gates(5, 9, 5, 7, revision=1))
    assert Turn.objects.get(pk=turn.pk).score == 116
    assert not selectors.standings_for_competition(competition).attention
    with pytest.raises(Refused):
        correction_undo(correction=Correction.objects.get(), by=UserFactory())


@pytest.mark.parametrize("corrections", [1, 6])
def test_pages_with_a_trail_take_constant_queries(
    desk_client, played, organiser, corrections, django_assert_max_num_queries
):
    competition = played[0].competition
    turn = Turn.objects.get(entry=played[0], number=1)
    for revision in range(1, corrections + 1):
        counts = (0, 0, 0, revision)
        services.turn_correct(turn=turn, revision=revision, counts=counts, entered_by=organiser)
    # session, user, competition, organiser check, entry, rota entries, turns, trail, the
    # trail's names shortened in public (events.selectors.with_public_texts)
    with django_assert_max_num_queries(9):
        assert desk_client.get(url("desk_player", competition, played[0].pk)).status_code == 200
    # session, user, competition, organiser check, the game, its trail, its public names
    with django_assert_max_num_queries(7):
        assert desk_client.get(url("turn", competition, turn.pk)).status_code == 200
    # ETag version, competition, entries, turns, trail, the trail's public names
    # (+1 on the event's first page: its language, then cached; events/language.py)
    with django_assert_max_num_queries(7):
        desk_client.get(url("standings", competition), headers=HTMX)
