"""Adjudicating or closing a table that will not finish (A-RR-15)."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

import pytest
import time_machine
from django.urls import reverse

from events.errors import Invalid, NotFound, Stale
from events.models import CompetitionStatus, Correction, EventRole, Game, Seat
from roundrobin import selectors, services
from roundrobin.models import Ending, GameDetail, RatingChange
from roundrobin.services.adjudication import table_adjudicate
from tests.support.factories import UserFactory
from tests.support.roundrobin import (
    START,
    enter_players,
    game_between,
    make_competition,
    play,
    private,
    started_duel,
)

H = dt.timedelta(hours=1)


@pytest.fixture
def trio(event):
    competition = make_competition(event, slug="trio")
    a, b, c = enter_players(competition, 3)
    services.competition_start(competition=competition, seed=1, now=START)
    competition.refresh_from_db()
    return competition, a, b, c


def white_of(game):
    return Seat.objects.get(game=game, position=1).entry


def move_both(game, at):
    for seat in Seat.objects.filter(game=game).select_related("entry__competition"):
        services.move_submit(entry=seat.entry, game_id=game.pk, turn=1, text="e4", now=at)


def test_adjudicated_and_unplayed_games_make_the_table_final(trio, organiser):
    competition, a, b, c = trio
    play(competition, a, b, at=START + H)
    ac, bc = game_between(a, c), game_between(b, c)
    move_both(ac, START + 2 * H)  # both moved: an adjudicated result is rated
    result = "1/2-1/2"  # a 1½, c ½, b 0: no tie left, so the table is final
    count = table_adjudicate(
        competition=competition,
        number=1,
        decisions={ac.pk: (result, ac.revision), bc.pk: ("unplayed", bc.revision)},
        reason="No progress for three months",
        by=organiser,
        now=START + 90 * 24 * H,
    )
    assert count == 2
    competition.refresh_from_db()
    assert competition.status == CompetitionStatus.FINISHED
    ac_detail, bc_detail = GameDetail.objects.get(game=ac), GameDetail.objects.get(game=bc)
    assert (ac_detail.ending, ac_detail.adjudicated, ac_detail.rated) == (Ending.PLAYED, True, True)
    assert (bc_detail.ending, bc_detail.adjudicated, bc_detail.rated) == (
        Ending.CANCELLED,
        True,
        False,
    )
    assert RatingChange.objects.filter(game=ac).count() == 2
    table = selectors.tables_for_competition(competition)[0]
    assert table.is_final
    assert {row.entry.pk: row.points for row in table.rows} == {
        a.pk: Fraction(3, 2),
        b.pk: 0,
        c.pk: Fraction(1, 2),
    }
    trail = Correction.objects.filter(competition=competition).order_by("pk")
    assert [(t.before, t.after, t.note, t.corrected_by) for t in trail] == [
        ("no result", "½-½ (adjudicated)", "No progress for three months", organiser),
        (
            "no result",
            "Cancelled (withdrawal, or a tiebreak no longer needed) (adjudicated)",
            "No progress for three months",
            organiser,
        ),
    ]


def test_an_adjudicated_game_without_moves_is_unrated(trio):
    competition, a, b, _c = trio
    game = game_between(a, b)
    table_adjudicate(
        competition=competition,
        number=1,
        decisions={game.pk: ("1/2-1/2", game.revision)},
        reason="Both gone",
        now=START + 40 * 24 * H,
    )
    detail = GameDetail.objects.get(game=game)
    assert detail.adjudicated and not detail.rated
    assert not RatingChange.objects.filter(game=game).exists()


def test_stale_unknown_and_empty_requests_are_refused(trio, event):
    competition, a, b, _c = trio
    game = game_between(a, b)
    with pytest.raises(Invalid, match="Say why"):
        table_adjudicate(competition=competition, number=1, decisions={}, reason=" ")
    with pytest.raises(Invalid, match="at least one unfinished game"):
        table_adjudicate(
            competition=competition, number=1, decisions={game.pk: ("", 0)}, reason="x"
        )
    with pytest.raises(Invalid, match="Choose 1-0"):
        table_adjudicate(
            competition=competition, number=1, decisions={game.pk: ("2-0", 0)}, reason="x"
        )
    with pytest.raises(NotFound):
        table_adjudicate(
            competition=competition, number=2, decisions={game.pk: ("1-0", 0)}, reason="x"
        )
    old = game.revision
    play(competition, a, b, at=START + H)
    with pytest.raises(Stale, match="in the meantime"):
        table_adjudicate(
            competition=competition, number=1, decisions={game.pk: ("0-1", old)}, reason="x"
        )
    assert not GameDetail.objects.filter(adjudicated=True).exists()


def test_a_tiebreak_game_needs_a_result_and_an_adjudicated_decider_decides(event):
    duel = started_duel(event, "pair")
    competition, (a, b) = duel.competition, duel.entries
    play(competition, a, b, draw=True, at=START + H)  # tied for 1st: a decider
    decider = Game.objects.get(round__session__competition=competition, round__number=2)
    with pytest.raises(Invalid, match="tiebreak game"):
        table_adjudicate(
            competition=competition,
            number=1,
            decisions={decider.pk: ("unplayed", decider.revision)},
            reason="x",
        )
    table_adjudicate(
        competition=competition,
        number=1,
        decisions={decider.pk: ("1-0", decider.revision)},
        reason="White was winning",
        now=START + 30 * 24 * H,
    )
    table = selectors.tables_for_competition(competition)[0]
    assert table.is_final
    winner = white_of(decider)
    assert [row.entry.pk for row in table.rows if row.place == 1] == [winner.pk]


def url(name, competition, *args):
    return reverse(f"roundrobin:{name}", args=[competition.event.slug, competition.slug, *args])


def test_the_desk_adjudicates_and_every_page_says_so(client, desk_client, trio):
    competition, a, b, c = trio
    play(competition, a, b, at=START + H)
    ac, bc = game_between(a, c), game_between(b, c)
    with time_machine.travel(START + 2 * H, tick=False):
        page = desk_client.get(url("desk_table", competition, 1)).content.decode()
        assert "Adjudicate or close this table" in page
        posted = {
            f"game-{ac.pk}": "1-0",
            f"revision-{ac.pk}": ac.revision,
            f"game-{bc.pk}": "unplayed",
            f"revision-{bc.pk}": bc.revision,
            "reason": "Out of time for the season",
        }
        nothing = desk_client.post(url("adjudicate", competition, 1), {**posted, "reason": ""})
        assert nothing.status_code == 302
        assert not GameDetail.objects.filter(adjudicated=True).exists()
        done = desk_client.post(url("adjudicate", competition, 1), posted, follow=True)
        html = done.content.decode()
        assert "2 games adjudicated." in html
        assert "1ᴬ" in html or "0ᴬ" in html
        assert "Out of time for the season" in html  # the trail's reason
        again = desk_client.post(url("adjudicate", competition, 1), posted, follow=True)
        assert "in the meantime" in again.content.decode()
        public = client.get(url("tables", competition)).content.decode()
        assert 'title="adjudicated"' in public and "–ᴬ" in public
        desk_client.logout()
        mine = client.get(private(client, c)).content.decode()
    assert "adjudicated: unplayed" in mine and "adjudicated" in mine


def test_a_scorekeeper_cannot_adjudicate(client, trio):
    competition, a, b, _c = trio
    keeper = UserFactory(username="keeper")
    EventRole.objects.create(event=competition.event, user=keeper, role=EventRole.Role.SCOREKEEPER)
    client.force_login(keeper)
    game = game_between(a, b)
    page = client.get(url("desk_table", competition, 1)).content.decode()
    assert "Adjudicate or close" not in page
    answer = client.post(
        url("adjudicate", competition, 1),
        {f"game-{game.pk}": "1-0", f"revision-{game.pk}": game.revision, "reason": "x"},
    )
    assert answer.status_code == 403


def test_bad_input_gets_a_sentence_never_a_500(desk_client, trio):
    competition, a, b, _c = trio
    game = game_between(a, b)
    address = url("adjudicate", competition, 1)
    for posted, words in [
        ({f"game-{game.pk}": "2-0", f"revision-{game.pk}": game.revision}, "Choose 1-0"),
        ({f"game-{game.pk}": "1-0", f"revision-{game.pk}": "x"}, "at least one unfinished"),
        ({"game-999999": "1-0", "revision-999999": 0}, "not an unfinished game of this table"),
        ({"game-x": "1-0"}, "at least one unfinished"),
    ]:
        answer = desk_client.post(address, {**posted, "reason": "why"}, follow=True)
        assert answer.status_code == 200 and words in answer.content.decode()
    assert not GameDetail.objects.filter(adjudicated=True).exists()
