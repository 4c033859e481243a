"""Sjoelen games from players' phones at the board, on 390 px phones: a player
sends their game with the board's code, the next player at the board confirms it on their
own phone, and it reaches the standings."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from events.models import ResultProposal
from events.services import proposals as shared
from shuffleboard import proposals
from shuffleboard.models import Turn
from tests.support.browser import screenshot
from tests.support.factories import EventFactory, PlayerFactory, UserFactory
from tests.support.shuffleboard import PlayingEntryFactory, SjoelenFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_player_sends_a_game_and_the_next_player_confirms_it(phone, second_phone, live_server):
    organiser = UserFactory(username="desk")
    event = EventFactory(name="LinCon 2026", slug="lincon", organisers=[organiser])
    competition = SjoelenFactory(event=event, name="Sjoelen", slug="sjoelen")
    competition.settings = {**competition.settings, "results_from_players": True}
    competition.save(update_fields=["settings"])
    anna, bert = (
        PlayingEntryFactory(competition=competition, player=PlayerFactory(name=name))
        for name in ("Anna Sööt", "Bert Tamm")
    )
    url = live_server.url + reverse("shuffleboard:propose", args=["lincon", "sjoelen", 1])
    code = proposals.board_code(competition, 1)

    phone.goto(url)
    form = phone.locator("#propose-form")
    form.get_by_label("Who are you?").select_option(str(anna.pk))
    form.get_by_label("Board code").fill(code.lower())
    form.locator("#id_number").fill("1")
    for gate, count in zip((1, 2, 3, 4), (5, 9, 5, 7), strict=True):
        form.locator(f"#id_gate{gate}").fill(str(count))
    form.get_by_role("button", name="Send game").click()
    expect(phone.locator(".messages")).to_contain_text("another player at the board confirms")
    expect(phone.locator("#waiting article.proposal")).to_contain_text("116")
    screenshot(phone, "sjoelen-player-results-proposed-390")

    second_phone.goto(url)
    card = second_phone.locator("#waiting article.proposal")
    expect(card).to_contain_text("Anna Sööt")
    card.get_by_label("Who are you?").select_option(str(bert.pk))
    card.get_by_label("Board code").fill(code)
    card.get_by_role("button", name="I saw this game: confirm").click()
    expect(second_phone.locator(".messages")).to_contain_text("Confirmed and saved")
    expect(second_phone.locator("#waiting")).to_have_count(0)

    phone.goto(live_server.url + reverse("shuffleboard:standings", args=["lincon", "sjoelen"]))
    expect(phone.locator("main")).to_contain_text("116")
    assert Turn.objects.get(entry=anna, number=1).score == 116
    assert ResultProposal.objects.get().status == ResultProposal.Status.ACCEPTED


def test_two_versions_of_a_game_reach_the_desk_as_a_conflict(desk_page, live_server):
    organiser = UserFactory(username="desk")
    event = EventFactory(name="LinCon 2026", slug="lincon", organisers=[organiser])
    competition = SjoelenFactory(event=event, name="Sjoelen", slug="sjoelen")
    competition.settings = {**competition.settings, "results_from_players": True}
    competition.save(update_fields=["settings"])
    anna, bert = (
        PlayingEntryFactory(competition=competition, player=PlayerFactory(name=name))
        for name in ("Anna Sööt", "Bert Tamm")
    )
    code = proposals.board_code(competition, 1)
    game = {"player": anna.pk, "number": 1, "board": 1}
    shared.proposal_submit(
        competition=competition, entry=anna, code=code, payload={**game, "counts": [5, 9, 5, 7]}
    )
    shared.proposal_submit(
        competition=competition, entry=bert, code=code, payload={**game, "counts": [7, 7, 7, 9]}
    )

    desk = desk_page("desk")
    desk.goto(live_server.url + reverse("events:proposals", args=["lincon", "sjoelen"]))
    conflict = desk.locator("#conflicts .side-by-side")
    expect(conflict.locator("article.proposal")).to_have_count(2)
    # Side by side on the phone, to compare line by line: one row, two columns.
    # Both boxes in one read: the page may not move between two.
    first, second = conflict.locator("article.proposal").evaluate_all(
        "cards => cards.map(card => card.getBoundingClientRect().toJSON())"
    )
    assert abs(first["y"] - second["y"]) < 1 and second["x"] > first["x"] + first["width"] - 1
    assert desk.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    expect(conflict).to_contain_text("116")
    expect(conflict).to_contain_text("148")
    screenshot(desk, "sjoelen-player-results-desk-conflict-390")
    conflict.locator("article.proposal").last.get_by_role("button", name="Accept").click()
    expect(desk.locator(".messages")).to_contain_text("Result accepted.")
    expect(desk.locator("#conflicts article")).to_have_count(0)
    assert Turn.objects.get(entry=anna, number=1).score == 148
