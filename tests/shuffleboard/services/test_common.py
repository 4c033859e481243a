"""What every sjoelen write shares (``shuffleboard.services.common``): the guards, the one check
of a result, the highest game number and the version bump a finished competition's classes
need."""

from __future__ import annotations

import datetime as dt

import pytest

from events.errors import Invalid, ServiceError
from events.models import Competition
from shuffleboard import rules
from shuffleboard.models import Turn
from shuffleboard.services import common
from tests.support.factories import (
    CompetitionFactory,
    EventFactory,
    HostClubFactory,
    PlayerFactory,
)
from tests.support.shuffleboard import PlayingEntryFactory, SjoelenFactory


def test_the_guards_refuse_another_format_and_a_finished_competition(sjoelen, event):
    common.ensure_writable(sjoelen)
    blokus = CompetitionFactory(event=event, slug="blokus", format="blokus")
    with pytest.raises(ServiceError) as refused:
        common.ensure_writable(blokus)
    assert refused.value.code == "wrong_format"
    sjoelen.status = Competition.Status.FINISHED
    with pytest.raises(ServiceError) as finished:
        common.ensure_writable(sjoelen)
    assert finished.value.code == "finished"
    common.ensure_sjoelen(sjoelen)  # still sjoelen, only not writable


def test_the_highest_game_number_counts_the_play_off_rounds(sjoelen):
    assert common.highest_number(sjoelen) == 10
    sjoelen.settings = {**sjoelen.settings, "title_playoff": True}
    assert common.highest_number(sjoelen) == 10 + rules.PLAYOFF_ROUNDS


def test_a_result_is_checked_under_the_competitions_bonus_rule(sjoelen):
    checked = common.validated(sjoelen, (5, 9, 5, 7), rules.NO_BONUS, None)
    assert checked.score == 116
    with pytest.raises(Invalid) as refused:
        common.validated(sjoelen, (7, 7, 7, 9), (0, 0, 0, 1), 1)
    assert refused.value.code == "bonus_off"
    with pytest.raises(Invalid):
        common.validated(sjoelen, (31, 0, 0, 0), rules.NO_BONUS, None)


def test_a_checked_result_fills_the_row_and_keeps_the_sub_turns_as_lists(sjoelen):
    checked = common.validated(sjoelen, None, rules.NO_BONUS, None, [(4, 6, 3, 5), (1, 3, 2, 2)])
    turn = Turn()
    common.turn_apply(turn, checked)
    assert turn.counts == (5, 9, 5, 7) and turn.score == 116
    assert turn.sub_turns == [[4, 6, 3, 5], [1, 3, 2, 2]]
    assert common.rows_json(None) is None


def test_finishing_bumps_the_unfinished_competitions_that_carry_classes(sjoelen, event):
    classed = SjoelenFactory(event=event, slug="classed", settings={"games": 2, "classes": True})
    plain = SjoelenFactory(event=event, slug="plain", settings={"games": 2})
    before = dict(Competition.objects.values_list("pk", "version"))
    common.touch_classed(sjoelen)
    after = dict(Competition.objects.values_list("pk", "version"))
    assert after[sjoelen.pk] > before[sjoelen.pk]
    assert after[classed.pk] > before[classed.pk]
    assert after[plain.pk] == before[plain.pk]


@pytest.mark.django_db
def test_the_season_nights_after_a_night_are_the_later_ones_of_its_players():
    club = HostClubFactory()
    anna, bert = PlayerFactory(host=club), PlayerFactory(host=club)

    def night(day, *players, host=club):
        event = EventFactory(host=host, starts_on=day, ends_on=day)
        competition = SjoelenFactory(event=event)
        entries = [PlayingEntryFactory(competition=competition, player=p) for p in players]
        return competition, entries

    here, (annas, _) = night(dt.date(2026, 3, 1), anna, bert)
    night(dt.date(2026, 2, 1), anna)  # before: it does not draw this night
    same_day, _ = night(dt.date(2026, 3, 1), anna)
    later, _ = night(dt.date(2026, 4, 1), anna)
    night(dt.date(2026, 4, 8), bert)  # Bert's only: Anna's correction does not touch it
    night(dt.date(2027, 1, 5), anna)  # next season
    touched = Competition.objects.filter(common.season_nights_after(here, [annas.pk]))
    assert set(touched.values_list("pk", flat=True)) == {same_day.pk, later.pk}
