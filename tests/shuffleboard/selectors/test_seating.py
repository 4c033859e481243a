"""The desk's report on boards kept apart at a sjoelen night (``shuffleboard.selectors.seating``,
the ``seating_apart`` setting): what the plan could not meet, game by game and why, and the
repeat board-mates, on the competition desk in a constant number of queries; the public rota
says how it places players; the desk's group page is offered, and a group marked there moves
the public pages."""

from __future__ import annotations

import datetime as dt

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from events.models import Entry
from events.seating.services import entry_groups_set
from shuffleboard.selectors import rota_for_competition
from shuffleboard.selectors.seating import boards_report
from tests.support.shuffleboard import PlayingEntryFactory, SjoelenFactory, url


def night(sjoelen, clubs, *, boards=2, games=3, mode="every_round"):
    sjoelen.settings = {**sjoelen.settings, "games": games, "boards": boards, "seating_apart": mode}
    sjoelen.save(update_fields=["settings"])
    start = timezone.now() - dt.timedelta(hours=1)
    return [
        PlayingEntryFactory(
            competition=sjoelen, checked_in_at=start + dt.timedelta(seconds=i), player__club=club
        )
        for i, club in enumerate(clubs)
    ]


def test_the_desk_names_each_board_the_plan_could_not_part(desk_client, sjoelen):
    # Three of one club and two boards: two of them share a board in every game.
    night(sjoelen, ["Tartu", "Tartu", "Tartu", ""])
    page = desk_client.get(sjoelen.get_desk_url()).content.decode()
    assert 'id="boards-report"' in page
    assert page.count("Game 1, board") == 1 and "club Tartu" in page
    assert "more of them than boards, so some must share one." in page
    assert reverse("events:seating_groups", args=[sjoelen.event.slug, sjoelen.slug]) in page
    rota = rota_for_competition(sjoelen)
    assert "repeat board-mate" in page
    assert len(rota.players) == 4


def test_a_family_marked_at_the_desk_is_parted_and_the_desk_says_so(desk_client, sjoelen):
    entries = night(sjoelen, ["", "", "", ""])
    Entry.objects.filter(pk__in=[entries[0].pk, entries[1].pk]).update(group="Sööt")
    rota = rota_for_competition(sjoelen)
    for number in rota.game_numbers:
        assert rota.by_entry(entries[0].pk).board_for(number) != rota.by_entry(
            entries[1].pk
        ).board_for(number)
    page = desk_client.get(sjoelen.get_desk_url()).content.decode()
    assert "No two players of one club or group share a board in any game." in page
    groups = desk_client.get(
        reverse("events:seating_groups", args=[sjoelen.event.slug, sjoelen.slug])
    )
    assert groups.status_code == 200 and "Sööt" in groups.content.decode()


def test_with_the_setting_off_the_desk_says_nothing_and_the_rota_goes_round(desk_client, sjoelen):
    night(sjoelen, ["Tartu", "Tartu"], mode="off")
    assert 'id="boards-report"' not in desk_client.get(sjoelen.get_desk_url()).content.decode()
    assert "everyone moves one board on" in desk_client.get(url("rota", sjoelen)).content.decode()


def test_the_public_rota_says_how_boards_are_kept_apart(client, sjoelen):
    night(sjoelen, ["Tartu", "Tartu"])
    page = client.get(url("rota", sjoelen)).content.decode()
    assert "at different boards where they can be" in page


def test_the_desk_with_boards_apart_takes_the_same_queries_for_4_or_40_players(
    desk_client, event, sjoelen
):
    counts = []
    for players, competition in ((4, sjoelen), (40, SjoelenFactory(event=event))):
        night(competition, [f"Club {i % 7}" for i in range(players)], boards=6, games=10)
        desk_client.get(competition.get_desk_url())  # the event's language, then cached
        with CaptureQueriesContext(connection) as queries:
            assert desk_client.get(competition.get_desk_url()).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_a_group_marked_at_the_desk_moves_the_public_rota_at_once(client, sjoelen):
    entries = night(sjoelen, ["", "", "", ""])
    before = client.get(url("rota", sjoelen))
    changed = entry_groups_set(
        competition=sjoelen, groups={entries[0].pk: "Sööt", entries[2].pk: "Sööt"}
    )
    after = client.get(url("rota", sjoelen), headers={"if-none-match": before["ETag"]})
    assert changed == 2 and after.status_code == 200 and after["ETag"] != before["ETag"]
    rota = rota_for_competition(sjoelen)
    first, third = rota.by_entry(entries[0].pk), rota.by_entry(entries[2].pk)
    assert all(first.board_for(n) != third.board_for(n) for n in rota.game_numbers)


def test_the_report_reads_the_rota_game_by_game(sjoelen):
    assert boards_report(sjoelen) is None  # off: nothing to report
    entries = night(sjoelen, ["Tartu", "tartu", "Tartu", ""], boards=2, games=2)
    report = boards_report(sjoelen)
    assert report is not None and report.players == 4
    # Three of a club at two boards: one pair of them shares a board in each game.
    found = [(game, line.kind, line.label.lower(), line.unavoidable) for game, line in report.lines]
    assert found == [(1, "club", "tartu", True), (2, "club", "tartu", True)]
    rota = rota_for_competition(sjoelen)
    for game, line in report.lines:
        at_board = rota.table(game)[line.table - 1]
        members = [p.entry.player.name for p in at_board if p.entry.player.club]
        assert sorted(line.names) == sorted(members) and len(members) == 2
    # Two boards of two for two games: each player meets one other in game 2 again at most.
    assert 0 <= report.repeats <= 2 and len(entries) == 4
