"""The sjoelen charts' reads: a player's season night by night, and where the discs go."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

import pytest

from shuffleboard import rules, services
from shuffleboard.models import Turn
from shuffleboard.selectors import charts
from tests.support.factories import EventFactory, HostClubFactory, PlayerFactory
from tests.support.shuffleboard import PlayingEntryFactory, SjoelenFactory

pytestmark = pytest.mark.django_db


def night(player, day: dt.date, games: list[tuple[int, int, int, int]], *, host=None, **settings):
    """A sjoelen night on ``day`` with ``player`` and their games entered; gives the entry."""
    event = EventFactory(starts_on=day, ends_on=day, host=host or HostClubFactory())
    competition = SjoelenFactory(event=event, settings={"games": 10, "boards": 4, **settings})
    entry = PlayingEntryFactory(competition=competition, player=player)
    for number, counts in enumerate(games, start=1):
        services.turn_record(entry=entry, number=number, counts=counts)
    return entry


def test_it_gives_the_players_average_night_by_night_up_to_this_one():
    player = PlayerFactory(name="Anna")
    night(player, dt.date(2025, 12, 1), [(7, 7, 7, 9)])  # last season: not shown
    first = night(player, dt.date(2026, 2, 1), [(5, 9, 5, 7), (7, 7, 7, 9)])  # 116, 148
    empty = night(player, dt.date(2026, 3, 1), [])
    here = night(player, dt.date(2026, 4, 1), [(1, 1, 1, 1)], classes=True, class_a=120)
    night(player, dt.date(2026, 5, 1), [(7, 7, 7, 9)])  # after this night: not shown
    other = PlayerFactory(name="Bert")
    night(other, dt.date(2026, 3, 15), [(7, 7, 7, 9)])  # someone else's

    season = charts.season_averages(here.competition, here)

    assert season.year == 2026
    assert [n.competition_id for n in season.nights] == [
        first.competition_id,
        empty.competition_id,
        here.competition_id,
    ]
    assert [n.average for n in season.nights] == [Fraction(132), None, Fraction(20)]
    assert [n.games for n in season.nights] == [2, 0, 1]
    assert [n.here for n in season.nights] == [False, False, True]
    assert (season.class_a, season.class_b) == (120, 100)


def test_it_draws_no_class_boundaries_without_classes():
    entry = night(PlayerFactory(), dt.date(2026, 4, 1), [(5, 9, 5, 7)])
    season = charts.season_averages(entry.competition, entry)
    assert (season.class_a, season.class_b) == (None, None)
    assert [n.average for n in season.nights] == [Fraction(116)]


@pytest.mark.parametrize("nights", [5, 40])
def test_it_reads_a_season_in_two_queries(nights, django_assert_max_num_queries):
    player = PlayerFactory()
    entries = [
        night(player, dt.date(2026, 1, 1) + dt.timedelta(days=n), [(5, 9, 5, 7)] * 2)
        for n in range(nights)
    ]
    here = entries[-1]
    with django_assert_max_num_queries(2):
        season = charts.season_averages(here.competition, here)
    assert len(season.nights) == nights
    assert {n.average for n in season.nights} == {Fraction(116)}


def test_it_splits_the_discs_by_gate_against_the_field():
    event = EventFactory()
    competition = SjoelenFactory(event=event)
    anna, bert = (
        PlayingEntryFactory(competition=competition, player=PlayerFactory(name=name))
        for name in ("Anna", "Bert")
    )
    services.turn_record(entry=anna, number=1, counts=(5, 9, 5, 7))
    services.turn_record(entry=anna, number=2, sub_turns=[(4, 6, 3, 5), (1, 2, 2, 2), (0, 1, 0, 0)])
    services.turn_record(entry=bert, number=1, counts=(0, 0, 0, 10))

    split = charts.gate_split(competition, anna)

    assert split.player.counts == (10, 18, 10, 14)
    assert split.player.games == 2
    assert split.player.share(2) == Fraction(18, 52)
    assert split.field.counts == (10, 18, 10, 24)
    assert split.field.games == 3
    assert split.without_sub_turns == 1
    assert split.with_sub_turns == 1
    assert [d.counts for d in split.player_sub_turns] == [(4, 6, 3, 5), (1, 2, 2, 2), (0, 1, 0, 0)]
    assert split.player_sub_turns[0].per_game() == 18


def test_it_says_nothing_was_typed_when_no_sub_turns_were():
    competition = SjoelenFactory()
    entry = PlayingEntryFactory(competition=competition)
    services.turn_record(entry=entry, number=1, counts=(5, 9, 5, 7))
    split = charts.gate_split(competition, entry)
    assert split.with_sub_turns == 0
    assert split.without_sub_turns == 1
    assert split.player_sub_turns[0].per_game() is None


def test_it_splits_no_discs_before_any_game():
    competition = SjoelenFactory()
    entry = PlayingEntryFactory(competition=competition)
    split = charts.gate_split(competition, entry)
    assert split.player.total == 0
    assert split.player.share(1) is None


@pytest.mark.parametrize("games", [5, 40])
def test_it_splits_in_one_query(games, django_assert_max_num_queries):
    competition = SjoelenFactory(settings={"games": 40, "boards": 4})
    entries = [PlayingEntryFactory(competition=competition) for _ in range(4)]
    for entry in entries:
        for number in range(1, games + 1):
            services.turn_record(entry=entry, number=number, sub_turns=[(4, 6, 3, 5), (1, 2, 2, 2)])
    with django_assert_max_num_queries(1):
        split = charts.gate_split(competition, entries[0])
    assert split.player.games == games
    assert split.field.games == 4 * games


@pytest.mark.parametrize(
    "rows",
    [None, "4635", [[4, 6, 3, 5], "x"], {"a": 1}, [[4, 6, 3, 5], [1, 3, 2, 2]], [[1.5, 0, 0, 0]]],
)
def test_stored_sub_turns_are_checked_as_the_rules_check_them(rows):
    counts = (5, 9, 5, 7)
    assert charts.typed_sub_turns(rows, counts) == rules.stored_sub_turns(rows, counts)
    assert charts.typed_sub_turns(rows, counts) == rules.stored_sub_turns(rows, counts)


@pytest.mark.parametrize(
    "rows",
    [None, "4635", [[4, 6, 3, 5], "x"], {"a": 1}, [[4, 6, 3, 5], [1, 3, 2, 2]], [[1.5, 0, 0, 0]]],
)
def test_the_page_reads_the_season_and_the_split_as_the_two_reads_do(
    rows, django_assert_max_num_queries
):
    player = PlayerFactory()
    first = night(player, dt.date(2026, 1, 1), [(5, 9, 5, 7)] * 2)
    here = night(player, dt.date(2026, 2, 1), [(5, 9, 5, 7), (1, 2, 3, 4)])
    rival = PlayingEntryFactory(competition=here.competition)
    services.turn_record(entry=rival, number=1, sub_turns=[(4, 6, 3, 5), (1, 2, 2, 2)])
    services.turn_record(entry=here, number=3, sub_turns=[(4, 6, 3, 5), (1, 2, 2, 2)])
    Turn.objects.filter(entry=here, number=1).update(sub_turns=rows)
    with django_assert_max_num_queries(2):
        season, split = charts.season_and_split(here.competition, here)
    assert season == charts.season_averages(here.competition, here)
    assert split == charts.gate_split(here.competition, here)
    assert [n.games for n in season.nights] == [2, 3]
    assert first.competition_id == season.nights[0].competition_id
