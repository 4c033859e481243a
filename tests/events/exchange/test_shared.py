"""The shared export (``events.exchange.shared``): what a format without an export of its own
gets for its downloads, results sheet and event documents, read from the shared rows alone."""

from __future__ import annotations

from decimal import Decimal

from events.exchange import shared
from events.exchange.sheets import csv_bytes
from events.live.results_sheet import podium
from tests.support.factories import (
    CompetitionFactory,
    EntryFactory,
    GameFactory,
    PlayerFactory,
    RoundFactory,
    SeatFactory,
    SessionFactory,
)

# A format key no seat check knows: the shared rows take any values, as a new format's do.
FREE = "toyformat_shared"


def played(event):
    """Four players, two games: Anna wins both, Bo and Cy tie on points and score, Di has
    not played."""
    competition = CompetitionFactory(event=event, format=FREE, settings={})
    names = ("Anna Berg", "Bo Ek", "Cy Lind", "Di Ström")
    anna, bo, cy, di = (
        EntryFactory(competition=competition, player=PlayerFactory(name=name, club="K"))
        for name in names
    )
    game_round = RoundFactory(session=SessionFactory(competition=competition))
    first, second = GameFactory(round=game_round, number=1), GameFactory(round=game_round, number=2)
    SeatFactory(game=first, entry=anna, position=1, score=30, points=2)
    SeatFactory(game=first, entry=bo, position=2, score=20, points=Decimal("0.5"))
    SeatFactory(game=second, entry=anna, position=1, score=25, points=2)
    SeatFactory(game=second, entry=cy, position=2, score=20, points=Decimal("0.5"))
    return competition, di


def test_the_standings_sum_each_entrys_seats_and_share_tied_places(event):
    competition, _di = played(event)
    sheet = shared.standings(competition)
    assert sheet.header == ["Place", "Shared", "Player", "Club", "Points", "Score", "Games",
                            "Withdrawn"]  # fmt: skip
    assert [row[:7] for row in sheet.rows] == [
        [1, False, "Anna Berg", "K", Decimal(4), 55, 2],
        [2, True, "Bo Ek", "K", Decimal("0.5"), 20, 1],
        [2, True, "Cy Lind", "K", Decimal("0.5"), 20, 1],
        [None, False, "Di Ström", "K", Decimal(0), 0, 0],  # listed, unplaced
    ]
    assert [(row.place, row.shared, row.name) for row in podium(sheet)] == [
        (1, False, "Anna Berg"),
        (2, True, "Bo Ek"),
        (2, True, "Cy Lind"),
    ]


def test_public_sheets_name_players_as_they_chose(event):
    competition, _di = played(event)
    competition.entries.get(player__name="Anna Berg").player.__class__.objects.filter(
        name="Anna Berg"
    ).update(name_shown="short")
    assert shared.standings(competition, public=True).rows[0][2] == "Anna B."
    assert shared.standings(competition).rows[0][2] == "Anna Berg"
    public = shared.results(competition, public=True)
    assert [row[4] for row in public.rows] == ["Anna B.", "Bo Ek", "Anna B.", "Cy Lind"]


def test_the_results_are_every_seat_in_playing_order_in_one_query(event, django_assert_num_queries):
    competition, _di = played(event)
    with django_assert_num_queries(1):
        sheet = shared.results(competition)
    assert [(row[2], row[3], row[4], row[7], row[8]) for row in sheet.rows] == [
        (1, 1, "Anna Berg", 30, Decimal(2)),
        (1, 2, "Bo Ek", 20, Decimal("0.5")),
        (2, 1, "Anna Berg", 25, Decimal(2)),
        (2, 2, "Cy Lind", 20, Decimal("0.5")),
    ]
    assert csv_bytes(sheet).decode("utf-8-sig").splitlines()[2].endswith(",Bo Ek,K,,20,0.50")


def test_the_standings_cost_one_query_whatever_the_field(event, django_assert_num_queries):
    competition, _di = played(event)
    EntryFactory.create_batch(20, competition=competition)
    with django_assert_num_queries(1):
        rows = shared.standings(competition).rows
    assert len(rows) == 24


def test_it_has_no_tables_and_keeps_correction_payloads_as_they_are():
    payload = {"seat": 3, "before": {"score": 1}}
    assert shared.TABLES == ()
    assert shared.correction_payload(payload, lambda table, file_id: 999) == payload
