"""Results from players' phones, on 390 px phones: one phone sends a Blokus table's
result and another confirms it, and it reaches the standings; two different results reach the
desk as a conflict, side by side; a submission sent again creates nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from events.models import Game, ResultProposal
from events.services import proposals
from tests.support.blokus import seated_round, small
from tests.support.browser import POLL_WAIT, screenshot
from tests.support.factories import EventFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def table():
    organiser = UserFactory(username="desk")
    event = EventFactory(name="LinCon 2026", slug="lincon", organisers=[organiser])
    competition = small(event, slug="blokus")
    competition.settings = {**competition.settings, "results_from_players": True}
    competition.save(update_fields=["settings"])
    session = competition.sessions.get()
    round_ = seated_round(competition, session, 8)
    game = Game.objects.filter(round=round_).order_by("number").first()
    seats = list(game.seats.select_related("entry__player").order_by("position"))
    return competition, game, seats


def args(competition) -> list[str]:
    return [competition.event.slug, competition.slug]


def this_is_me(page, base: str, competition, entry_id: int) -> None:
    page.goto(base + reverse("blokus:player", args=[*args(competition), entry_id]))
    page.get_by_role("button", name="This is me").click()


def fill_result(page, seats, squares: list[int], code: str) -> None:
    page.get_by_label("Table code").last.fill(code)
    for seat, n in zip(seats, squares, strict=True):
        page.locator(f"#id_squares_{seat.pk}").fill(str(n))
        if n == 0:
            page.locator(f"#id_monomino_{seat.pk}").check()


def test_one_phone_proposes_another_confirms_and_it_reaches_the_standings(
    phone, second_phone, live_server, table
):
    competition, game, seats = table
    base = live_server.url
    code = proposals.table_code(game)

    this_is_me(phone, base, competition, seats[0].entry_id)
    phone.locator("a[data-propose]").first.click()
    expect(phone.locator("#id_entry")).to_have_value(str(seats[0].entry_id))  # "This is me"
    fill_result(phone, seats, [0, 1, 2, 3], code.lower())
    phone.get_by_role("button", name="Send result").click()
    expect(phone.locator(".messages")).to_contain_text("another player at your table confirms")
    screenshot(phone, "player-results-proposed-390")

    this_is_me(second_phone, base, competition, seats[2].entry_id)
    second_phone.goto(base + reverse("blokus:propose", args=[*args(competition), game.pk]))
    card = second_phone.locator("#waiting article.proposal")
    expect(card).to_contain_text(seats[0].entry.player.name)
    expect(card.locator("select")).to_have_value(str(seats[2].entry_id))
    card.get_by_label("Table code").fill(code)
    card.get_by_role("button", name="This is our result: confirm").click()
    expect(second_phone.locator(".messages")).to_contain_text("the result is in the standings")
    expect(second_phone.locator("#result-in")).to_be_visible()

    # The first phone's session page follows without a reload: the table has its result.
    phone.goto(base + reverse("blokus:session", args=[*args(competition), 1]))
    expect(phone.locator(f"#table-{game.number}")).to_contain_text("result in", timeout=POLL_WAIT)
    expect(phone.locator(f"#table-{game.number}")).to_contain_text("+5")
    assert ResultProposal.objects.get().status == ResultProposal.Status.ACCEPTED


def test_two_different_results_reach_the_desk_as_a_conflict_side_by_side(
    phone, second_phone, desk_page, live_server, table
):
    competition, game, seats = table
    base = live_server.url
    url = base + reverse("blokus:propose", args=[*args(competition), game.pk])
    code = proposals.table_code(game)
    for page, who, squares in ((phone, 0, [0, 1, 2, 3]), (second_phone, 1, [0, 1, 2, 7])):
        this_is_me(page, base, competition, seats[who].entry_id)
        page.goto(url)
        if who:  # a result is waiting: sending another one is one tap further
            page.get_by_text("Send a different result").click()
        fill_result(page, seats, squares, code)
        page.locator("#propose-form button[type=submit]").click()
        expect(page.locator(".messages")).to_be_visible()
    expect(second_phone.locator(".messages")).to_contain_text("the desk will decide")

    desk = desk_page("desk")
    desk.goto(base + reverse("events:proposals", args=args(competition)))
    conflict = desk.locator("#conflicts .side-by-side")
    expect(conflict.locator("article.proposal")).to_have_count(2)
    # Side by side on the phone, to compare line by line: one row, two columns.
    # Both boxes in one read: the page may not move between two.
    first, second = conflict.locator("article.proposal").evaluate_all(
        "cards => cards.map(card => card.getBoundingClientRect().toJSON())"
    )
    assert abs(first["y"] - second["y"]) < 1 and second["x"] > first["x"] + first["width"] - 1
    assert desk.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    expect(conflict).to_contain_text(seats[0].entry.player.name)
    expect(conflict).to_contain_text("-7")
    screenshot(desk, "player-results-desk-conflict-390")
    conflict.locator("article.proposal").first.get_by_role("button", name="Accept").click()
    expect(desk.locator(".messages")).to_contain_text("Result accepted.")
    expect(desk.locator("#conflicts article")).to_have_count(0)
    game.refresh_from_db()
    assert game.is_finished


def test_a_replayed_submission_key_creates_nothing(phone, live_server, table):
    competition, game, seats = table
    base = live_server.url
    this_is_me(phone, base, competition, seats[0].entry_id)
    phone.goto(base + reverse("blokus:propose", args=[*args(competition), game.pk]))
    fill_result(phone, seats, [0, 1, 2, 3], proposals.table_code(game))
    replay = """async () => {
      const form = document.querySelector("#propose-form");
      const body = new FormData(form);
      const statuses = [];
      for (let i = 0; i < 2; i++) {
        const r = await fetch(form.action, {method: "POST", body, redirect: "manual"});
        statuses.push(r.type === "opaqueredirect" ? 302 : r.status);
      }
      return statuses;
    }"""
    assert phone.evaluate(replay) == [302, 302]  # the second is answered like the first
    phone.reload()
    expect(phone.locator("#waiting article.proposal")).to_have_count(1)
    assert ResultProposal.objects.count() == 1
