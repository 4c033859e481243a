"""The reads of the rule options (``shuffleboard.selectors.options``): the title play-off as
its games are entered, and the average a player carries from their last finished competition."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

from events.models import Competition
from shuffleboard import selectors, services
from tests.support.factories import EventFactory, PlayerFactory
from tests.support.shuffleboard import PlayingEntryFactory, SjoelenFactory


def test_the_play_off_starts_once_every_game_is_in_and_crowns_the_better(tied):
    competition, a, b, c = tied
    assert selectors.standings_with_options(competition).playoff is None  # Mari has a game left
    services.turn_record(entry=c, number=2, counts=(1, 1, 1, 1))
    playoff = selectors.standings_with_options(competition).playoff
    assert playoff.player_names == ["Õie Sööt", "Jüri Tamm"]
    assert playoff.waiting_names == ["Õie Sööt", "Jüri Tamm"] and playoff.number == 3
    services.playoff_record(entry=a, counts=(0, 0, 0, 30))
    assert selectors.standings_with_options(competition).playoff.waiting_names == ["Jüri Tamm"]
    services.playoff_record(entry=b, counts=(0, 0, 0, 20))
    shown = selectors.standings_with_options(competition)
    assert shown.playoff.champion_names == ["Õie Sööt"]
    assert shown.playoff.rounds[0][0] == 1
    assert [(name, score) for name, score, _pk in shown.playoff.rounds[0][1]] == [
        ("Õie Sööt", 120),
        ("Jüri Tamm", 80),
    ]
    assert [(r.name, r.place) for r in shown.standings.rows][:2] == [
        ("Õie Sööt", 1),
        ("Jüri Tamm", 2),
    ]


def test_the_public_play_off_uses_public_names(tied):
    competition, a, b, c = tied
    services.turn_record(entry=c, number=2, counts=(1, 1, 1, 1))
    a.player.name_shown = "short"
    a.player.save(update_fields=["name_shown"])
    playoff = selectors.standings_with_options(competition).playoff
    assert playoff.player_names[0] == "Õie Sööt"
    assert playoff.in_public().player_names[0] == "Õie S."


def on(year, organiser):
    """An event of that year's May, organised by ``organiser``."""
    return EventFactory(
        slug=f"e{year}",
        starts_on=dt.date(year, 5, 5),
        ends_on=dt.date(year, 5, 8),
        organisers=[organiser],
    )


def finished(event, player, counts, games=2, slug="old"):
    competition = SjoelenFactory(event=event, slug=slug, settings={"games": games, "boards": 1})
    entry = PlayingEntryFactory(competition=competition, player=player)
    for number, game in enumerate(counts, start=1):
        services.turn_record(entry=entry, number=number, counts=game)
    Competition.objects.filter(pk=competition.pk).update(status=Competition.Status.FINISHED)
    return competition


def test_the_carried_average_is_of_the_latest_earlier_finished_competition(organiser):
    ann = PlayerFactory(name="Ann")
    older = on(2024, organiser)
    last = on(2025, organiser)
    later = on(2027, organiser)
    finished(older, ann, [(1, 1, 1, 1), (1, 1, 1, 1)])  # 20: not the latest
    finished(last, ann, [(7, 7, 7, 9), (5, 9, 5, 7)])  # 148 + 116
    finished(later, ann, [(0, 0, 0, 0), (0, 0, 0, 0)])  # after this one: not carried
    here = on(2026, organiser)
    now = SjoelenFactory(event=here, slug="now", settings={"games": 2, "classes": True})
    entry = PlayingEntryFactory(competition=now, player=ann)
    newcomer = PlayingEntryFactory(competition=now, player=PlayerFactory(name="Bo"))
    averages = selectors.carried_averages(now)
    assert averages == {entry.pk: Fraction(264, 2)}
    assert newcomer.pk not in averages


def test_without_the_option_there_are_no_classes(played):
    competition = played[0].competition
    assert selectors.standings_with_options(competition).classes == []
    assert selectors.standings_with_options(competition).playoff is None
