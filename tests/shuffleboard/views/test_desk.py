"""The sjoelen desk: access, score entry (totals or sub-turns, bonus discs), corrections,
score cards and finishing."""

from __future__ import annotations

import json
import re
from contextlib import contextmanager

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from events.errors import Conflict, Refused
from events.models import Competition, Correction, Player
from events.outbox import notify, webhooks
from events.outbox.models import OutboxMessage
from events.services import correction_undo
from shuffleboard import proposals, rules, selectors, services
from shuffleboard.forms import SUB_TURNS_DIFFER
from shuffleboard.models import Turn
from shuffleboard.selectors import standings_with_options
from tests.support.factories import EntryFactory, PlayerFactory, UserFactory
from tests.support.print_items import download, pdf_of
from tests.support.printing import text_of
from tests.support.shuffleboard import (
    FULL,
    HTMX,
    SUB_TURN_ROWS,
    PlayingEntryFactory,
    SjoelenFactory,
    board_url,
    competition_version,
    gates,
    sub_turns,
    turn_on,
    url,
)

# --- desk: permissions ----------------------------------------------------------------------

DESK_GETS = ["entry", "cards"]


@pytest.mark.parametrize("name", DESK_GETS)
def test_desk_pages_need_a_login(client, sjoelen, name):
    response = client.get(url(name, sjoelen))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


@pytest.mark.parametrize("name", DESK_GETS)
def test_desk_pages_refuse_other_organisers(client, sjoelen, outsider, name):
    client.force_login(outsider)
    assert client.get(url(name, sjoelen)).status_code == 403


def test_other_organisers_cannot_record_or_correct(client, played, outsider):
    competition = played[0].competition
    turn = Turn.objects.first()
    client.force_login(outsider)
    data = gates(1, 1, 1, 1, entry=played[3].pk, number=1)
    assert client.post(url("turn_record", competition), data).status_code == 403
    assert (
        client.post(url("turn", competition, turn.pk), gates(0, 0, 0, 0, revision=1)).status_code
        == 403
    )
    assert client.post(url("status", competition), {"action": "finish"}).status_code == 403
    assert Turn.objects.count() == 5


@pytest.mark.parametrize("name", DESK_GETS)
def test_desk_pages_404_for_other_formats(desk_client, competition, name):
    assert desk_client.get(url(name, competition)).status_code == 404


def test_writes_reject_get(desk_client, sjoelen):
    for name in ("turn_record", "preview", "status"):
        assert desk_client.get(url(name, sjoelen)).status_code == 405


# --- desk: score entry ----------------------------------------------------------------------


def test_the_entry_page_offers_the_next_player_at_a_board_with_the_next_game(desk_client, played):
    competition = played[0].competition
    html = desk_client.get(url("entry", competition) + "?board=3").content.decode()
    # game 3: player i is at board (i + 2) % 4 + 1, so board 3 has the first player
    assert '<h2 id="current-player">Õie Sööt</h2>' in html
    assert 'name="number" value="3"' in html
    labels = [html.index(f'for="id_gate{v}"') for v in (2, 3, 4, 1)]
    assert labels == sorted(labels)  # the gates in board order
    fragment = desk_client.get(url("entry", competition) + "?board=3", headers=HTMX)
    assert "<html" not in fragment.content.decode()


def test_the_entry_page_can_pick_a_player(desk_client, played):
    competition = played[0].competition
    html = desk_client.get(url("entry", competition) + f"?player={played[3].pk}").content.decode()
    assert '<h2 id="current-player">Toomas Saar</h2>' in html
    assert 'name="number" value="1"' in html
    for hostile in ("?player=abc", "?board=-1", "?board=99", "?player=99999"):
        assert desk_client.get(url("entry", competition) + hostile).status_code == 200


def test_it_saves_a_game_and_moves_to_the_next_player(desk_client, played):
    competition = played[0].competition
    data = gates(5, 9, 5, 7, entry=played[3].pk, number=1, board=4)
    response = desk_client.post(url("turn_record", competition), data, headers=HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert "turnRecorded" in json.loads(response["HX-Trigger"])
    assert "Saved: Toomas Saar, game 1: 116." in html
    assert "<html" not in html
    turn = Turn.objects.get(entry=played[3], number=1)
    assert (turn.score, turn.board) == (116, 4)
    assert turn.entered_by.username == "alice"


def post_score(desk_client, competition, entry, number, queries, htmx=True):
    """One score post at the desk in exactly ``queries`` queries, the remembered state cleared
    first (whether webhooks listen is remembered between requests)."""
    cache.clear()
    data = gates(5, 9, 5, 7, entry=entry.pk, number=number)
    headers = HTMX if htmx else {}
    with CaptureQueriesContext(connection) as ran:
        response = desk_client.post(url("turn_record", competition), data, headers=headers)
    assert len(ran.captured_queries) == queries, [q["sql"][:90] for q in ran.captured_queries]
    return response


def test_a_score_post_reads_the_rota_once_in_a_pinned_number_of_queries(desk_client, played):
    """The rota (the game's board, the next game, the panel) is read once and the counts are
    checked once: 22 queries with the panel (there were 23), 21 for a plain post."""
    competition = played[0].competition
    response = post_score(desk_client, competition, played[3], 1, queries=22)
    assert "Saved: Toomas Saar, game 1: 116." in response.content.decode()
    # the panel shows the game just saved among the last ones, and who is next
    assert response.context["recent"][0][1].entry == played[3]
    # next: game 2 (the lowest left) of the first in the rota, no longer Toomas's game 1
    assert response.context["current"].entry == played[2]
    assert post_score(desk_client, competition, played[3], 2, 21, htmx=False).status_code == 302


def test_a_score_post_tells_the_next_board_from_the_same_rota(desk_client, played):
    """A player who listens and a webhook for boards: the next game and board come from the
    rota the post read, not two more reads (38 queries; there were 43: 37 and, since messages
    leave by jobs, the one job written with the post's three messages)."""
    competition, entry = played[0].competition, played[3]
    Player.objects.filter(pk=entry.player_id).update(email="toomas@example.org")
    notify.preference_set(player=entry.player, event=competition.event, email=True, push=False)
    webhooks.webhook_create(
        event=competition.event,
        url="http://127.0.0.1:9/hook",
        topics=["result.confirmed", "round.seated"],
    )
    post_score(desk_client, competition, entry, 1, queries=38)
    # the 4th player checked in plays game 2 at board (3 + 2 - 1) mod 4 + 1 = 1
    told = OutboxMessage.objects.get(subject_key=f"sj-next:{entry.pk}")
    assert "Next: game 2 at board 1" in told.subject
    seated = OutboxMessage.objects.get(channel="webhook", subject="round.seated")
    assert json.loads(seated.body)["data"] | {"api": None} == {
        "event": competition.event.slug,
        "competition": competition.slug,
        "api": None,
        "entry": entry.pk,
        "game": 2,
        "board": 1,
    }


def test_a_plain_form_post_redirects(desk_client, played):
    competition = played[0].competition
    data = gates(5, 9, 5, 7, entry=played[3].pk, number=1, board=4)
    response = desk_client.post(url("turn_record", competition), data)
    assert response.status_code == 302
    assert response["Location"].endswith("?board=4")


@pytest.mark.parametrize(
    ("data", "error"),
    [
        (gates(8, 8, 8, 7, number=1), rules.TOO_MANY_DISCS.format(discs=30, total=31)),
        (gates(-1, 0, 0, 0, number=1), "Cannot be negative."),
        (gates("abc", 0, 0, 0, number=1), "Enter a whole number."),
        (gates("1.5", 0, 0, 0, number=1), "Enter a whole number."),
        (gates(10**12, 0, 0, 0, number=1), "At most 30."),
        ({"gate2": 3, "number": 1}, "Enter a count (0 if none)."),
        (gates(0, 0, 0, 0, number=11), "less than or equal to 10"),
        (gates(0, 0, 0, 0, number="x"), "Enter a whole number."),
    ],
)
def test_it_refuses_bad_counts_beside_the_field_and_keeps_what_was_typed(
    desk_client, played, data, error
):
    competition = played[0].competition
    data = {**data, "entry": played[3].pk}
    response = desk_client.post(url("turn_record", competition), data, headers=HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert error in html
    assert 'name="gate2"' in html and f'value="{data["gate2"]}"' in html
    assert not Turn.objects.filter(entry=played[3]).exists()
    plain = desk_client.post(url("turn_record", competition), data)
    assert plain.status_code == 400 and "<html" in plain.content.decode()


def test_it_refuses_a_game_already_entered(desk_client, played):
    competition = played[0].competition
    data = gates(0, 0, 0, 0, entry=played[0].pk, number=1)
    html = desk_client.post(url("turn_record", competition), data, headers=HTMX).content.decode()
    refusal = services.ALREADY_ENTERED % {"number": 1, "player": "Õie Sööt", "score": 116}
    assert refusal in html
    assert Turn.objects.get(entry=played[0], number=1).score == 116


def test_it_404s_for_another_competitions_player(desk_client, played, event):
    other = PlayingEntryFactory(competition=SjoelenFactory(event=event))
    data = gates(0, 0, 0, 0, entry=other.pk, number=1)
    assert desk_client.post(url("turn_record", played[0].competition), data).status_code == 404
    data["entry"] = "abc"
    assert desk_client.post(url("turn_record", played[0].competition), data).status_code == 404
    assert not Turn.objects.filter(entry=other).exists()


def test_the_preview_shows_score_and_discs_used(desk_client, sjoelen):
    response = desk_client.post(url("preview", sjoelen), gates(5, 9, 5, 7), headers=HTMX)
    html = response.content.decode()
    assert "<strong data-score>116</strong>" in html and "discs used 26/30" in html
    html = desk_client.post(url("preview", sjoelen), gates(8, 8, 8, 7)).content.decode()
    assert "discs used 31/30" in html and 'class="over"' in html
    html = desk_client.post(url("preview", sjoelen), {"gate1": "-3", "gate2": "x"}).content.decode()
    assert "<strong data-score>0</strong>" in html


# --- desk: corrections ----------------------------------------------------------------------


def test_the_correction_page_shows_the_counts_and_the_games_trail(desk_client, played):
    competition = played[0].competition
    turn = Turn.objects.get(entry=played[0], number=1)
    html = desk_client.get(url("turn", competition, turn.pk)).content.decode()
    assert 'name="revision" value="1"' in html
    assert 'name="gate2" value="9"' in html
    assert "corrected" not in html  # nothing corrected yet
    desk_client.post(url("turn", competition, turn.pk), gates(0, 0, 0, 30, revision=1))
    html = desk_client.get(url("turn", competition, turn.pk)).content.decode()
    assert "Game 1 of Õie Sööt corrected: 116 → 120" in html
    assert "alice" in html and "Undo" in html  # the desk shows who, and offers undo


def test_it_corrects_a_game_and_keeps_the_earlier_value(desk_client, played):
    competition = played[0].competition
    turn = Turn.objects.get(entry=played[0], number=1)
    response = desk_client.post(
        url("turn", competition, turn.pk), gates(0, 0, 0, 30, revision=1), headers=HTMX
    )
    html = response.content.decode()
    assert "Corrected: game 1 is now 120." in html
    assert 'name="revision" value="2"' in html
    assert "turnRecorded" in response["HX-Trigger"]
    assert [h.score for h in turn.history.order_by("history_date")] == [116, 120]
    plain = desk_client.post(url("turn", competition, turn.pk), gates(0, 0, 0, 29, revision=2))
    assert plain.status_code == 302
    assert Turn.objects.get(pk=turn.pk).score == 116


def test_a_stale_correction_is_refused_and_offers_the_current_revision(desk_client, played):
    competition = played[0].competition
    turn = Turn.objects.get(entry=played[0], number=1)
    services.turn_correct(turn=turn, revision=1, counts=(1, 1, 1, 1))
    html = desk_client.post(
        url("turn", competition, turn.pk), gates(0, 0, 0, 30, revision=1), headers=HTMX
    ).content.decode()
    stale = services.STALE_TURN % {
        "number": 1,
        "player": "Õie Sööt",
        "counts": rules.board_text((1, 1, 1, 1)),
        "score": 20,
    }
    assert stale in html
    assert 'name="gate4" value="30"' in html  # what was typed stays
    assert 'name="revision" value="2"' in html
    assert Turn.objects.get(pk=turn.pk).score == 20
    for revision in ("abc", ""):
        desk_client.post(url("turn", competition, turn.pk), gates(0, 0, 0, 30, revision=revision))
        assert Turn.objects.get(pk=turn.pk).score == 20


def test_corrections_404_for_other_competitions_games(desk_client, played, event):
    other_turn = services.turn_record(
        entry=PlayingEntryFactory(competition=SjoelenFactory(event=event)),
        number=1,
        counts=(0, 0, 0, 0),
    )
    competition = played[0].competition
    assert desk_client.get(url("turn", competition, other_turn.pk)).status_code == 404
    data = gates(0, 0, 0, 30, revision=1)
    assert desk_client.post(url("turn", competition, other_turn.pk), data).status_code == 404
    assert (
        desk_client.post(
            url("turn_delete", competition, other_turn.pk), {"revision": 1}
        ).status_code
        == 404
    )
    assert Turn.objects.get(pk=other_turn.pk).score == 0


def test_it_removes_a_game(desk_client, played):
    competition = played[0].competition
    turn = Turn.objects.get(entry=played[2], number=1)
    address = url("turn_delete", competition, turn.pk)
    stale = desk_client.post(address, {"revision": 5, "sure": "1"})
    assert stale.status_code == 302 and Turn.objects.filter(pk=turn.pk).exists()
    response = desk_client.post(address, {"revision": 1, "sure": "1"})
    assert response.status_code == 302
    assert not Turn.objects.filter(pk=turn.pk).exists()


def test_the_desk_player_page_lists_games_with_correction_links(desk_client, played):
    competition = played[0].competition
    turn = Turn.objects.get(entry=played[0], number=2)
    html = desk_client.get(url("desk_player", competition, played[0].pk)).content.decode()
    assert url("turn", competition, turn.pk) in html
    assert "Enter game 3" in html


# --- desk: score cards, finishing -----------------------------------------------------------


def test_the_score_cards_are_the_print_kits_sheet_per_board_and_game(desk_client, played):
    competition = played[0].competition
    cards = desk_client.get(url("cards", competition))
    assert cards["Location"] == reverse(
        "events:print_download", args=[competition.event.slug, competition.slug, "score-sheets"]
    )
    reader = pdf_of(desk_client.get(cards["Location"]))
    assert len(reader.pages) == 4 * 10  # four boards, ten games
    assert text_of(reader).count("Õie Sööt") == 10  # once per game


def test_it_finishes_and_reopens_the_competition(desk_client, played):
    competition = played[0].competition
    finish = {"action": "finish", "sure": "1"}
    response = desk_client.post(url("status", competition), finish)
    assert response.status_code == 302
    competition.refresh_from_db()
    assert competition.status == Competition.Status.FINISHED
    html = desk_client.get(url("entry", competition)).content.decode()
    assert "scores can no longer be entered" in html
    again = desk_client.post(url("status", competition), finish, follow=True)
    refusal = services.ALREADY_FINISHED % {"competition": competition.name}
    assert refusal in again.content.decode()
    desk_client.post(url("status", competition), {"action": "reopen"})
    competition.refresh_from_db()
    assert competition.status == Competition.Status.RUNNING
    assert desk_client.post(url("status", competition), {"action": "explode"}).status_code == 404


@pytest.mark.parametrize("players", [8, 40])
def test_the_entry_page_takes_constant_queries(
    client, event, players, django_assert_max_num_queries
):
    user = UserFactory()
    event.organisers.add(user)
    client.force_login(user)
    competition = SjoelenFactory(event=event)
    entries = PlayingEntryFactory.create_batch(players, competition=competition)
    EntryFactory(competition=competition, player=PlayerFactory())  # not checked in
    Turn.objects.bulk_create(
        Turn(entry=e, number=1, c1=1, c2=1, c3=1, c4=1, score=20, board=1) for e in entries
    )
    # session, user, competition, organiser check, entries, turns, the correction trail, the
    # help badge's count
    with django_assert_max_num_queries(8):
        client.get(url("entry", competition) + "?board=1")
    with django_assert_max_num_queries(6):
        client.get(url("cards", competition))  # a redirect to the print kit's sheets


# --- desk: entry per sub-turn -----------------------------------------------------------------


def test_it_adds_up_sub_turns(desk_client, played):
    competition = played[0].competition
    data = sub_turns((4, 6, 3, 5), (1, 2, 2, 2), (0, 1, 0, 0), entry=played[3].pk, number=1)
    preview = desk_client.post(url("preview", competition), data).content.decode()
    assert "<strong data-score>116</strong>" in preview and "discs used 26/30" in preview
    desk_client.post(url("turn_record", competition), data, headers=HTMX)
    turn = Turn.objects.get(entry=played[3], number=1)
    assert (turn.counts, turn.score) == ((5, 9, 5, 7), 116)


def test_it_accepts_matching_totals_and_refuses_differing_ones(desk_client, played):
    competition = played[0].competition
    rows = sub_turns((4, 6, 3, 5), (1, 3, 2, 2), entry=played[3].pk, number=1)
    differing = desk_client.post(
        url("turn_record", competition), {**rows, **gates(5, 9, 5, 6)}, headers=HTMX
    ).content.decode()
    params = {"sub_turns": "2→9 3→5 4→7 1→5", "totals": "2→9 3→5 4→6 1→5"}
    assert str(SUB_TURNS_DIFFER % params) in differing
    assert 'name="s2_gate2" value="3"' in differing  # typed values kept
    desk_client.post(url("turn_record", competition), {**rows, **gates(5, 9, 5, 7)})
    assert Turn.objects.get(entry=played[3], number=1).score == 116


def test_it_refuses_sub_turns_that_break_the_rules(desk_client, played):
    competition = played[0].competition
    too_many = sub_turns((10, 10, 5, 0), (2, 2, 2, 0), entry=played[3].pk, number=1)
    html = desk_client.post(url("turn_record", competition), too_many, headers=HTMX)
    problem = rules.SUB_TURN_MORE_THAN_LEFT.format(number=2, landed=6, left=5)
    assert problem in html.content.decode()
    after_all_in = sub_turns((7, 7, 7, 9), (0, 0, 0, 0), (0, 1, 0, 0), entry=played[3].pk, number=1)
    html = desk_client.post(url("turn_record", competition), after_all_in, headers=HTMX)
    problem = rules.SUB_TURN_AFTER_ALL_IN.format(discs=30, done=1, number=3)
    assert problem in html.content.decode()
    assert not Turn.objects.filter(entry=played[3]).exists()


def test_sub_turns_tell_when_148_was_reached_for_bonus_discs(client, event):
    user = UserFactory()
    event.organisers.add(user)
    client.force_login(user)
    competition = SjoelenFactory(
        event=event, settings={"games": 5, "boards": 1, "bonus_disc": True}
    )
    entry = PlayingEntryFactory(competition=competition)
    page = client.get(url("entry", competition)).content.decode()
    assert 'name="bonus4"' in page and 'name="max_after"' in page
    data = sub_turns((6, 6, 6, 8), (1, 1, 1, 1), entry=entry.pk, number=1, bonus2=1)
    client.post(url("turn_record", competition), data)
    turn = Turn.objects.get(entry=entry)
    assert (turn.max_after, turn.bonus_counts, turn.score) == (2, (0, 1, 0, 0), 150)


def test_counts_for_a_player_who_withdrew_meanwhile_are_not_shown_under_another(
    desk_client, played
):
    from events.services import entry_withdraw

    competition = played[0].competition
    entry_withdraw(entry=played[3])
    data = gates(5, 9, 5, 7, entry=played[3].pk, number=1)
    html = desk_client.post(url("turn_record", competition), data, headers=HTMX).content.decode()
    assert services.WITHDRAWN % {"player": "Toomas Saar"} in html
    assert 'value="9"' not in html  # the next player's form is fresh
    assert not Turn.objects.filter(entry=played[3]).exists()


def test_picking_a_player_with_every_game_entered_offers_corrections(desk_client, sjoelen):
    sjoelen.settings = {**sjoelen.settings, "games": 1}
    sjoelen.save()
    entry = PlayingEntryFactory(competition=sjoelen, player=PlayerFactory(name="Done Player"))
    services.turn_record(entry=entry, number=1, counts=(1, 1, 1, 1))
    html = desk_client.get(url("entry", sjoelen) + f"?player={entry.pk}").content.decode()
    assert "Every game of Done Player is entered." in html
    assert 'id="turn-form"' not in html


def test_the_desk_sees_the_board_code(board, desk_client):
    competition, _ = board
    entry = reverse("shuffleboard:entry", args=[competition.event.slug, competition.slug])
    page = desk_client.get(f"{entry}?board=1").content.decode()
    assert proposals.board_code(competition, 1) in page
    turn_on(competition, False)
    page = desk_client.get(f"{entry}?board=1").content.decode()
    assert proposals.board_code(competition, 1) not in page


def test_board_tents_carry_the_code_and_the_rota_links_the_board_page(board, client, desk_client):
    competition, _ = board
    args = [competition.event.slug, competition.slug]
    tents = text_of(pdf_of(download(desk_client, competition, "tents")))
    assert proposals.board_code(competition, 1) in tents
    rota = client.get(reverse("shuffleboard:rota", args=args)).content.decode()
    assert board_url(competition) in rota and proposals.board_code(competition, 1) not in rota


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


def test_a_desk_correction_is_recorded_and_undone_through_the_same_service(
    desk_client, played, organiser
):
    competition = played[0].competition
    turn = Turn.objects.get(entry=played[0], number=1)
    before = competition_version(competition)
    desk_client.post(url("turn", competition, turn.pk), gates(0, 0, 0, 30, revision=1))
    correction = Correction.objects.get()
    assert (correction.item, correction.before, correction.after) == ("Game 1", "116", "120")
    assert (correction.entry, correction.source, correction.corrected_by) == (
        played[0],
        "desk",
        organiser,
    )
    assert correction.payload["before"]["counts"] == [5, 9, 5, 7]
    assert competition_version(competition) == before + 1

    response = desk_client.post(reverse("events:correction_undo", args=[correction.pk]))
    assert response.status_code == 302
    turn.refresh_from_db()
    assert (turn.counts, turn.score, turn.revision) == ((5, 9, 5, 7), 116, 3)
    undo = Correction.objects.get(reverts=correction)
    assert (undo.source, undo.before, undo.after) == ("undo", "120", "116")
    assert competition_version(competition) == before + 2
    with pytest.raises(Conflict):
        correction_undo(correction=correction, by=organiser)


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


def test_the_score_entry_page_shows_the_trail_with_undo(desk_client, played):
    competition = played[0].competition
    turn = Turn.objects.get(entry=played[1], number=2)
    desk_client.post(url("turn", competition, turn.pk), gates(5, 9, 5, 6, revision=1))
    html = desk_client.get(url("entry", competition)).content.decode()
    assert "Game 2 of Jüri Tamm corrected: 116 → 112" in html and "Undo" in html


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
    # trail's names shortened in public (events.selectors.with_public_texts), the help badge
    with django_assert_max_num_queries(10):
        assert desk_client.get(url("desk_player", competition, played[0].pk)).status_code == 200
    # session, user, competition, organiser check, the game, its trail, its public names, the
    # help badge's count
    with django_assert_max_num_queries(8):
        assert desk_client.get(url("turn", competition, turn.pk)).status_code == 200
    # ETag version, competition, entries, turns, trail, the trail's public names
    # (+1 on the event's first page: its language, then cached; events/language.py)
    with django_assert_max_num_queries(7):
        desk_client.get(url("standings", competition), headers=HTMX)


def test_finishing_asks_first_and_works_without_javascript(desk_client, played):
    competition = played[0].competition
    desk = desk_client.get(competition.get_desk_url()).content.decode()
    assert "Finish the competition…" in desk
    asked = desk_client.post(url("status", competition), {"action": "finish"})
    page = asked.content.decode()
    assert asked.status_code == 200 and 'id="finish-confirm"' in page
    assert 'name="sure" value="1"' in page
    competition.refresh_from_db()
    assert competition.status != Competition.Status.FINISHED  # asking changed nothing
    done = desk_client.post(url("status", competition), {"action": "finish", "sure": "1"})
    assert done.status_code == 302
    competition.refresh_from_db()
    assert competition.status == Competition.Status.FINISHED
    # Reopening needs no confirmation: it takes nothing away.
    desk_client.post(url("status", competition), {"action": "reopen"})
    competition.refresh_from_db()
    assert competition.status == Competition.Status.RUNNING


def test_removing_a_game_asks_first_and_keeps_the_board(desk_client, played):
    competition = played[0].competition
    turn = Turn.objects.get(entry=played[2], number=1)
    address = url("turn_delete", competition, turn.pk)
    asked = desk_client.post(address, {"revision": 1, "board": 3})
    page = asked.content.decode()
    assert asked.status_code == 200 and 'id="delete-confirm"' in page
    assert "Remove game 1 of Mari Kask (score 20)?" in page
    assert 'name="sure" value="1"' in page and 'name="board" value="3"' in page
    assert Turn.objects.filter(pk=turn.pk).exists()
    done = desk_client.post(address, {"revision": 1, "board": 3, "sure": "1"})
    assert done.status_code == 302 and done["Location"].endswith("?board=3")
    assert not Turn.objects.filter(pk=turn.pk).exists()


def test_a_refused_second_submit_offers_correct_it_and_the_next_player(desk_client, played):
    competition = played[0].competition
    oie, _juri, mari, toomas = played
    data = gates(1, 1, 1, 1, entry=mari.pk, number=1, board=3)
    response = desk_client.post(url("turn_record", competition), data, headers=HTMX)
    html = response.content.decode()
    stored = Turn.objects.get(entry=mari, number=1)
    assert 'id="refused-links"' in html
    assert f"{url('turn', competition, stored.pk)}?board=3" in html
    assert "Next player" in html
    links = re.search(r'id="refused-links".*?</p>', html, re.S).group(0)
    assert f'player={mari.pk}"' not in links  # "next" moves on, not back to the same player
    assert Turn.objects.get(entry=mari, number=1).score == 20
    del oie, toomas


def test_the_board_is_kept_on_every_link_of_entry_and_correction(desk_client, played):
    competition = played[0].competition
    turn = Turn.objects.get(entry=played[0], number=1)
    entry = desk_client.get(url("entry", competition) + "?board=1").content.decode()
    for href in re.findall(r'href="([^"]*(?:/games/|/players/)[^"]*)"', entry):
        if "/desk/" in href:
            assert "board=1" in href, href
    correction = desk_client.get(url("turn", competition, turn.pk) + "?board=1").content.decode()
    assert f'href="{url("entry", competition)}?board=1"' in correction
    assert f'href="{url("desk_player", competition, played[0].pk)}?board=1"' in correction
    assert 'name="board" value="1"' in correction
    saved = desk_client.post(
        url("turn", competition, turn.pk), gates(5, 9, 5, 6, revision=turn.revision, board=1)
    )
    assert saved.status_code == 302 and saved["Location"].endswith("?board=1")
    player = desk_client.get(saved["Location"]).content.decode()
    assert f'href="{url("entry", competition)}?board=1"' in player
    assert f"{url('turn', competition, turn.pk)}?board=1" in player


def test_the_player_picker_sorts_by_folded_name(desk_client, playing):
    competition = playing[0].competition
    PlayingEntryFactory(competition=competition, player=PlayerFactory(name="Zed Zorro"))
    PlayingEntryFactory(competition=competition, player=PlayerFactory(name="Olev Org"))
    PlayingEntryFactory(competition=competition, player=PlayerFactory(name="émile Eek"))
    html = desk_client.get(url("entry", competition)).content.decode()
    picker = re.search(r'<select id="pick-player".*?</select>', html, re.S).group(0)
    names = re.findall(r'<option value="\d+"[^>]*>([^<]+)</option>', picker)
    assert names == [
        "émile Eek",
        "Jüri Tamm",
        "Mari Kask",
        "Õie Sööt",  # "oie" sorts before "olev"
        "Olev Org",
        "Toomas Saar",
        "Zed Zorro",
    ]


def test_count_fields_are_text_with_a_number_pad(desk_client, playing):
    competition = playing[0].competition
    html = desk_client.get(url("entry", competition)).content.decode()
    assert 'type="number"' not in html
    gate = re.search(r'<input[^>]*name="gate2"[^>]*>', html).group(0)
    assert 'type="text"' in gate and 'inputmode="numeric"' in gate and 'pattern="[0-9]*"' in gate
    # The range is still checked, on the server.
    data = gates(1, 1, 1, 31, entry=playing[3].pk, number=1)
    refused = desk_client.post(url("turn_record", competition), data)
    assert refused.status_code == 400 and not Turn.objects.filter(entry=playing[3]).exists()


def test_games_entered_reads_in_the_singular_for_one_game(desk_client, sjoelen):
    sjoelen.settings = {**sjoelen.settings, "games": 1}
    sjoelen.save()
    PlayingEntryFactory(competition=sjoelen, player=PlayerFactory(name="Ants Aru"))
    html = desk_client.get(url("entry", sjoelen)).content.decode()
    assert "0 of 1 game entered" in html and "1 games" not in html


def test_the_desk_keeps_the_full_name(desk_client, asa):
    competition, a, _b = asa
    for page in (
        url("entry", competition) + f"?player={a.pk}",
        url("desk_player", competition, a.pk),
    ):
        response = desk_client.get(page)
        assert response.status_code == 200, page
        assert FULL in response.content.decode(), page
    # The score sheets lie on the boards, where anyone reads them: the public name.
    sheets = text_of(pdf_of(desk_client.get(url("cards", competition), follow=True)))
    assert a.player.public_name in sheets and FULL not in sheets


def test_the_play_off_is_created_played_at_the_desk_and_decides_the_title(
    desk_client, client, tied, django_assert_max_num_queries
):
    competition, a, b, c = tied
    assert "title-playoff" not in client.get(url("standings", competition)).content.decode()
    services.turn_record(entry=c, number=2, counts=(1, 1, 1, 1))  # every game is in now
    page = client.get(url("standings", competition)).content.decode()
    assert 'id="title-pending"' in page and "Õie Sööt, Jüri Tamm" in page

    desk = desk_client.get(url("playoff", competition)).content.decode()
    assert 'id="current-player">Õie Sööt<' in desk
    # Round 1: equal again (116 each), so round 2 follows among the same two.
    for entry in (a, b):
        response = desk_client.post(url("playoff", competition), gates(5, 9, 5, 7, player=entry.pk))
        assert response.status_code == 302
    assert Turn.objects.filter(number=3).count() == 2
    # Mari does not play: refused, nothing stored.
    response = desk_client.post(url("playoff", competition), gates(0, 0, 0, 30, player=c.pk))
    assert response.status_code == 400 and not Turn.objects.filter(entry=c, number__gt=2).exists()
    assert 'id="playoff-error"' in response.content.decode()
    with pytest.raises(Conflict):
        services.playoff_record(entry=c, counts=(0, 0, 0, 30))
    # Round 2 by sub-turns for Jüri: 120 beats Õie's 116.
    desk_client.post(url("playoff", competition), gates(5, 9, 5, 7, player=a.pk))
    response = desk_client.post(
        url("playoff", competition),
        sub_turns((0, 0, 0, 20), (0, 0, 0, 10), player=b.pk),
    )
    assert response.status_code == 302
    assert Turn.objects.get(entry=b, number=4).sub_turns == [[0, 0, 0, 20], [0, 0, 0, 10]]

    with django_assert_max_num_queries(12):
        page = client.get(url("standings", competition)).content.decode()
    assert 'id="title-winner"' in page and "Jüri Tamm won the title play-off" in page
    shown = standings_with_options(competition).standings
    assert [(r.name, r.place, r.shared) for r in shown.rows] == [
        ("Jüri Tamm", 1, False),
        ("Õie Sööt", 2, False),
        ("Mari Kask", 3, False),
    ]
    assert [r.total for r in shown.rows] == [264, 264, 40]  # play-off games add nothing
    with pytest.raises(Refused):
        services.playoff_record(entry=a, counts=(0, 0, 0, 30))

    # A play-off game is corrected like any game, with its trail; it can change the title.
    turn = Turn.objects.get(entry=a, number=4)
    response = desk_client.post(
        url("turn", competition, turn.pk), gates(7, 7, 7, 9, revision=turn.revision)
    )
    assert response.status_code == 302
    assert standings_with_options(competition).standings.rows[0].name == "Õie Sööt"


def test_sub_turns_entered_at_the_desk_are_stored_shown_and_corrected(
    desk_client, client, playing, organiser
):
    entry = playing[0]
    competition = entry.competition
    response = desk_client.post(
        url("turn_record", competition),
        sub_turns(*SUB_TURN_ROWS, entry=entry.pk, number=1),
        headers=HTMX,
    )
    assert response.status_code == 200
    turn = Turn.objects.get(entry=entry, number=1)
    assert (turn.score, turn.sub_turns) == (116, [list(r) for r in SUB_TURN_ROWS])

    page = client.get(url("player", competition, entry.pk)).content.decode()
    assert page.count('class="sub-turn') == 3
    # sub-turn 1 in board order 2, 3, 4, 1: 6, 3, 5, 4
    assert (
        '<td class="num">6</td><td class="num">3</td><td class="num">5</td><td class="num">4</td>'
        in page
    )

    # The correction form starts from the rows; a changed row is a correction with its trail.
    form = desk_client.get(url("turn", competition, turn.pk)).content.decode()
    assert 'name="s3_gate2" value="1"' in form
    fixed = [
        SUB_TURN_ROWS[0],
        SUB_TURN_ROWS[1],
        (0, 0, 0, 1),
    ]  # the last disc went into the 4-gate: 5, 8, 5, 8
    response = desk_client.post(
        url("turn", competition, turn.pk), sub_turns(*fixed, revision=turn.revision)
    )
    assert response.status_code == 302
    turn.refresh_from_db()
    assert (turn.counts, turn.score, turn.sub_turns) == (
        (5, 8, 5, 8),
        118,
        [list(r) for r in fixed],
    )
    correction = Correction.objects.get()
    assert (correction.before, correction.after) == ("116", "118")
    assert correction.payload["before"]["sub_turns"] == [list(r) for r in SUB_TURN_ROWS]

    # A stale form (the old revision) is refused and changes nothing.
    response = desk_client.post(
        url("turn", competition, turn.pk), sub_turns(*SUB_TURN_ROWS, revision=1)
    )
    assert response.status_code == 400
    turn.refresh_from_db()
    assert turn.score == 118

    # Same score, other rows: the trail says what changed; the undo puts the rows back.
    moved = [(4, 6, 3, 5), (1, 2, 2, 3), (0, 0, 0, 0)]
    services.turn_correct(
        turn=turn,
        revision=turn.revision,
        counts=(5, 8, 5, 8),
        sub_turns=moved,
        entered_by=organiser,
    )
    last = Correction.objects.order_by("-pk").first()
    assert last.before.startswith("sub-turns") and last.after.startswith("sub-turns")
    services.undo_correction(last, organiser)
    turn.refresh_from_db()
    assert turn.sub_turns == [list(r) for r in fixed]

    # Corrected by totals only: the rows are dropped (they no longer describe the game).
    desk_client.post(url("turn", competition, turn.pk), gates(5, 9, 5, 7, revision=turn.revision))
    turn.refresh_from_db()
    assert (turn.score, turn.sub_turns) == (116, None)
    page = client.get(url("player", competition, entry.pk)).content.decode()
    assert 'class="sub-turn' not in page
