"""The sjoelen desk: access, score entry (totals or sub-turns, bonus discs), corrections,
score cards and finishing."""

from __future__ import annotations

import json

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from events.models import Competition, Player
from events.outbox import notify, webhooks
from events.outbox.models import OutboxMessage
from shuffleboard import rules, services
from shuffleboard.forms import SUB_TURNS_DIFFER
from shuffleboard.models import Turn
from tests.support.factories import EntryFactory, PlayerFactory, UserFactory
from tests.support.shuffleboard import (
    HTMX,
    PlayingEntryFactory,
    SjoelenFactory,
    gates,
    sub_turns,
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


def test_the_score_cards_have_one_sheet_per_board(desk_client, played):
    competition = played[0].competition
    html = desk_client.get(url("cards", competition)).content.decode()
    assert html.count('<section class="sheet">') == 4
    assert html.count("Õie Sööt") == 10  # once per game


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
    # session, user, competition, organiser check, entries, turns, the correction trail
    with django_assert_max_num_queries(7):
        client.get(url("entry", competition) + "?board=1")
    with django_assert_max_num_queries(6):
        client.get(url("cards", competition))


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
