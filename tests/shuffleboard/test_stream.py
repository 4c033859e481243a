"""Sjoelen's lower third (``shuffleboard.stream``): the boards of the game being played, as the
rota has them, names as players chose to be shown, in two queries whatever the field; and the
overlay page shows board 1, or the board the address names."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from events.embed import contract, selectors
from events.formats.registry import part
from events.models import NameShown
from shuffleboard import services
from shuffleboard.selectors import rota_for_competition
from tests.support.shuffleboard import PlayingEntryFactory, SjoelenFactory

pytestmark = pytest.mark.django_db


def test_the_lower_third_shows_the_current_games_boards(sjoelen, playing):
    assert isinstance(part("shuffleboard", contract.StreamTables), contract.StreamTables)
    tables = selectors.stream_tables(sjoelen)
    rota = rota_for_competition(sjoelen)
    assert [t.key for t in tables] == ["1", "2", "3", "4"]
    assert tables[0].label == "Game 1, board 1"
    assert tables[0].players == tuple(p.entry.player.public_name for p in rota.table(1)[0])
    # Once everyone has game 1 in, the lower third moves on to game 2.
    for entry in playing:
        services.turn_record(entry=entry, number=1, counts=(1, 1, 1, 1))
    assert selectors.stream_tables(sjoelen)[0].label == "Game 2, board 1"


def test_names_are_shown_as_players_chose_and_nobody_checked_in_shows_nothing(event):
    competition = SjoelenFactory(event=event, settings={"games": 2, "boards": 1})
    assert selectors.stream_tables(competition) == []
    PlayingEntryFactory(
        competition=competition, player__name="Õie Sööt", player__name_shown=NameShown.SHORT
    )
    (table,) = selectors.stream_tables(competition)
    assert table.players == ("Õie S.",)


@pytest.mark.parametrize("players", [4, 40])
def test_two_queries_whatever_the_field(event, players):
    competition = SjoelenFactory(event=event, settings={"games": 5, "boards": 6})
    for _ in range(players):
        PlayingEntryFactory(competition=competition)
    with CaptureQueriesContext(connection) as queries:
        selectors.stream_tables(competition)
    assert len(queries) == 2


def test_the_overlay_page_shows_the_board_asked_for(client, sjoelen, playing):
    url = reverse("events:overlay_lower_third", args=[sjoelen.event.slug, sjoelen.slug])
    page = client.get(url + "?table=2")
    assert page.status_code == 200
    assert "Game 1, board 2" in page.content.decode()
