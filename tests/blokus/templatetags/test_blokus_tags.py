"""The Blokus page helpers (``blokus.templatetags.blokus_tags``): numbers as people write them,
names public or full, and the seat rows and table cards written in one call."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from django.template import Context, Template
from django.urls import reverse

from blokus import selectors
from blokus.templatetags import blokus_tags
from events.models import Player
from tests.support.blokus import record, seated_round, small


@pytest.mark.parametrize(
    ("value", "text"),
    [(None, ""), ("", ""), (3, "3"), (Decimal("1.5"), "1½"), (Fraction(1, 2), "½")],
)
def test_qp_writes_halves(value, text):
    assert blokus_tags.qp(value) == text


def test_signed_clock_and_colour():
    assert [blokus_tags.signed(v) for v in (5, 0, -9, None)] == ["+5", "0", "-9", ""]
    assert [blokus_tags.clock_text(s) for s in (0, 59, 61, 900, -5)] == [
        "0:00",
        "0:59",
        "1:01",
        "15:00",
        "0:00",
    ]
    assert blokus_tags.colour_name("blue") == "blue"
    assert blokus_tags.colour_name("purple") == "purple"  # unknown: as it is


@pytest.fixture
def table(event):
    """A seated table of four, its first player called "<b>Ann Öberg</b>" who shows short."""
    competition = small(event)
    game = seated_round(competition, competition.sessions.get(), 4).games.get()
    seat = game.seats.get(position=1)
    Player.objects.filter(pk=seat.entry.player_id).update(
        name="<b>Ann Öberg</b>", name_shown="short"
    )
    return competition, game


def rows_of(game):
    return selectors.game_for_competition(game.round.session.competition, game.pk)[1]


def test_the_player_url_base_gives_the_reversed_address(table):
    competition, game = table
    base = blokus_tags.player_url_base(competition.event, competition)
    entry_id = game.seats.get(position=1).entry_id
    expected = reverse("blokus:player", args=[competition.event.slug, competition.slug, entry_id])
    assert blokus_tags.player_url(entry_id, base) == expected
    assert blokus_tags.player_url_base(None, competition) == ""


def test_seat_rows_escape_names_and_show_the_public_one_on_public_pages(table):
    competition, game = table
    record(game, [0, 1, 2, 3])
    seats = rows_of(game)
    base = blokus_tags.player_url_base(competition.event, competition)
    desk = blokus_tags.seat_rows(Context({}), seats, base)
    public = blokus_tags.seat_rows(Context({"public": True}), seats, base)
    assert "&lt;b&gt;Ann Öberg&lt;/b&gt;" in desk and "<b>Ann" not in desk
    assert "Öberg" not in public
    assert desk.count("<tr") == 4 and "+5" in desk and ">3<" in desk  # the winner's score, QP


def test_player_name_follows_the_public_flag_of_the_context(table):
    _competition, game = table
    player = game.seats.get(position=1).entry.player
    template = Template("{% load blokus_tags %}{% player_name player %}")
    assert "Öberg" in template.render(Context({"player": player}))
    assert "Öberg" not in template.render(Context({"player": player, "public": True}))


def test_table_cards_link_the_desk_and_mark_a_table_that_needs_attention(table):
    competition, game = table
    record(game, [0, 1, 2, 3])
    view = selectors.session_view(competition.sessions.get())
    games = view.rounds[0].games
    base = blokus_tags.player_url_base(competition.event, competition)
    context = Context({"desk": True, "event": competition.event, "competition": competition})
    html = blokus_tags.table_cards(context, games, base)
    result_url = reverse(
        "blokus:game_result", args=[competition.event.slug, competition.slug, game.pk]
    )
    assert f'href="{result_url}"' in html and "Correct result" in html
    assert 'id="table-1"' in html and "needs attention" not in html
    game.seats.exclude(position=1).delete()  # a raw SQL fix gone wrong: one seat left
    view = selectors.session_view(competition.sessions.get())
    html = blokus_tags.table_cards(context, view.rounds[0].games, base)
    assert 'data-problem="seats"' in html
