"""Reads for seating apart (``events.seating.selectors``): an entry's groups are its folded club
and group; the desk's lines name the table, the players and why; the group page's rows in one
query."""

from __future__ import annotations

import pytest

from events.models import Entry, Player
from events.rules.seating import Clash
from events.seating.contract import EVERY_ROUND, OFF
from events.seating.selectors import (
    CLUB,
    GROUP,
    clash_lines,
    group_entries,
    keeps_apart,
    repeat_count,
    seating_mode,
    wish_groups,
)
from tests.support.factories import CompetitionFactory, EntryFactory, PlayerFactory

pytestmark = pytest.mark.django_db


def entry(competition, name, club="", group=""):
    return EntryFactory(
        competition=competition, player=PlayerFactory(name=name, club=club), group=group
    )


def test_groups_are_the_folded_club_and_the_folded_group(competition):
    anna = entry(competition, "Anna", club="Uppsala ", group="Berg")
    bo = entry(competition, "Bo", club="UPPSALA", group="  berg")
    cy = entry(competition, "Cy")
    groups = wish_groups([anna, bo, cy])
    assert groups[anna.pk] == groups[bo.pk] == {(CLUB, "uppsala"), (GROUP, "berg")}
    assert cy.pk not in groups


def test_the_desk_lines_name_the_table_the_players_and_why(competition):
    anna = entry(competition, "Anna", club="Lund")
    bo = entry(competition, "Bo", club="lund")
    cy = entry(competition, "Cy", group="Berg")
    dag = entry(competition, "Dag", group="Berg")
    entries = {e.pk: e for e in (anna, bo, cy, dag)}
    clashes = [
        Clash("group", 1, (anna.pk, bo.pk), group=(CLUB, "lund"), unavoidable=True),
        Clash("group", 0, (cy.pk, dag.pk), group=(GROUP, "berg")),
        Clash("repeat", 0, (cy.pk, anna.pk), times=2),
    ]
    lines = clash_lines(clashes, entries, [3, 7])
    assert [(x.table, x.names, x.kind, x.label, x.unavoidable) for x in lines] == [
        (7, ("Anna", "Bo"), CLUB, "Lund", True),
        (3, ("Cy", "Dag"), GROUP, "Berg", False),
    ]
    assert repeat_count(clashes) == 2


def test_the_group_page_rows_come_in_one_query_grouped_first(
    competition, django_assert_num_queries
):
    entry(competition, "Ö", group="")
    entry(competition, "B", group="Berg")
    gone = entry(competition, "W")
    Entry.objects.filter(pk=gone.pk).update(withdrawn_at="2026-01-01T00:00Z")
    with django_assert_num_queries(1):
        rows = group_entries(competition)
    assert [e.player.name for e in rows] == ["B", "Ö"]


def test_the_mode_comes_from_the_format(event):
    blokus = CompetitionFactory(event=event, format="blokus", slug="b")
    assert seating_mode(blokus) == OFF and not keeps_apart(blokus)
    blokus.settings = {**blokus.settings, "seating_apart": EVERY_ROUND}
    assert keeps_apart(blokus)
    league = CompetitionFactory(event=event, format="roundrobin", slug="r")
    assert seating_mode(league) is None and not keeps_apart(league)
    assert Player.objects.count() == 0
