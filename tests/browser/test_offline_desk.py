"""The desk keeps working offline (static/js/offline.js): results saved while the
browser is offline wait in IndexedDB ("Waiting to send (N)"), survive a reload, and are sent in
order, each exactly once, when the connection returns; a result that became stale meanwhile is
shown as a conflict and not applied. Every wait is for a condition (Playwright's expect)."""

from __future__ import annotations

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from blokus import services as blokus_services
from events.models import Game, Seat, SubmissionToken
from shuffleboard.models import Turn
from tests.support.blokus import seated_round, set_up
from tests.support.browser import screenshot
from tests.support.factories import (
    CompetitionFactory,
    EntryFactory,
    EventFactory,
    PlayerFactory,
    UserFactory,
)
from tests.support.shuffleboard import SjoelenFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

GAMES = [(5, 9, 5, 7), (7, 7, 7, 9), (1, 2, 3, 4)]  # gates worth 1, 2, 3, 4
SCORES = [116, 148, 40]


def _sjoelen(live_server, desk_page):
    """A sjoelen board with one player; the desk's score entry open on a phone (returned)."""
    organiser = UserFactory(username="desk")
    event = EventFactory(name="Tallinn Games", slug="tallinn", organisers=[organiser])
    competition = SjoelenFactory(
        event=event,
        name="Sjoelen",
        slug="sjoelen",
        settings={"games": 3, "boards": 1, "bonus_disc": False},
    )
    entry = EntryFactory(
        competition=competition, player=PlayerFactory(name="Õie Sööt"), checked_in_at=timezone.now()
    )
    phone = desk_page("desk")
    phone.goto(f"{live_server.url}/desk/tallinn/sjoelen/sjoelen/")
    expect(phone.locator("#current-player")).to_have_text("Õie Sööt")
    return entry, phone


def _enter(page, counts: tuple[int, int, int, int]) -> None:
    for value, count in enumerate(counts, start=1):
        page.fill(f"#id_gate{value}", str(count))
    page.press("#id_gate1", "Enter")


def _arrived(entry) -> list[tuple[int, int]]:
    return list(Turn.objects.filter(entry=entry).order_by("number").values_list("number", "score"))


def test_three_scores_entered_offline_arrive_once_when_back_online(desk_page, live_server):
    entry, phone = _sjoelen(live_server, desk_page)
    queue = phone.locator("#offline-queue")
    phone.context.set_offline(True)
    for done, counts in enumerate(GAMES, start=1):
        expect(phone.locator("#id_number")).to_have_value(str(done))
        _enter(phone, counts)
        expect(queue.locator("h2")).to_have_text(f"Waiting to send ({done})")
    expect(queue.locator("li")).to_have_count(3)
    expect(queue).to_contain_text("Õie Sööt")
    assert _arrived(entry) == []
    screenshot(phone, "offline-desk-waiting")

    phone.context.set_offline(False)
    expect(queue).to_be_hidden()  # each one answered (a 2xx) and taken off the queue
    assert _arrived(entry) == list(zip([1, 2, 3], SCORES, strict=True))
    assert SubmissionToken.objects.count() == 3


def test_offline_the_desk_says_it_waits_for_the_network_and_nothing_else(desk_page, live_server):
    """A preview that follows the typing fails offline: that is no result 'not sent', which
    would invite typing a queued result twice."""
    _entry, phone = _sjoelen(live_server, desk_page)
    phone.context.set_offline(True)
    _enter(phone, GAMES[0])
    queue = phone.locator("#offline-queue")
    expect(queue.locator("h2")).to_have_text("Waiting to send (1)")
    failed = phone.evaluate_handle(
        """() => new Promise(done => document.addEventListener(
            "htmx:sendError", () => setTimeout(done, 0), { once: true }))"""
    )
    phone.fill("#id_gate1", "3")  # the preview's request fails: no network
    phone.evaluate("failed => failed", failed)
    expect(phone.locator("main [data-htmx-error]")).to_have_count(0)  # site.js's "Not sent"
    expect(queue).to_contain_text("You are offline")


def test_the_queue_survives_a_reload_and_is_sent_from_the_reloaded_page(desk_page, live_server):
    entry, phone = _sjoelen(live_server, desk_page)
    queue = phone.locator("#offline-queue")
    phone.context.set_offline(True)
    _enter(phone, GAMES[0])
    expect(queue.locator("h2")).to_have_text("Waiting to send (1)")

    # Back online, but the score posts still fail (the venue's network half up): the result
    # stays queued in IndexedDB through a reload of the page.
    blocked = "**/desk/tallinn/sjoelen/sjoelen/save/"
    phone.route(blocked, lambda route: route.abort())
    phone.context.set_offline(False)
    phone.reload()
    expect(queue.locator("h2")).to_have_text("Waiting to send (1)")
    expect(queue.locator("li")).to_contain_text("Õie Sööt")
    assert _arrived(entry) == []

    phone.unroute(blocked)  # the network is whole again: the retry timer sends it
    expect(queue).to_be_hidden(timeout=30_000)
    assert _arrived(entry) == [(1, SCORES[0])]


def test_a_queued_blokus_result_that_became_stale_is_shown_as_a_conflict(desk_page, live_server):
    organiser = UserFactory(username="desk")
    event = EventFactory(name="LinCon", slug="lincon", organisers=[organiser])
    competition = CompetitionFactory(event=event, name="Blokus", slug="blokus")
    session = set_up(competition)[0]
    seated_round(competition, session, 4)
    game = Game.objects.get(round__session=session)
    seats = list(game.seats.order_by("position"))

    phone = desk_page("desk")
    phone.goto(f"{live_server.url}/desk/lincon/blokus/blokus/game/{game.pk}/")
    phone.context.set_offline(True)
    for seat, squares in zip(seats, (1, 2, 3, 4), strict=True):
        phone.fill(f"#id_squares_{seat.pk}", str(squares))
    phone.click("#result-form button[type=submit]")
    queue = phone.locator("#offline-queue")
    expect(queue.locator("h2")).to_have_text("Waiting to send (1)")

    # Meanwhile another desk saves this table (revision 0 -> 1).
    blokus_services.game_result_record(
        game=game,
        revision=0,
        hands=[
            blokus_services.HandInput(seat.pk, squares, False)
            for seat, squares in zip(seats, (10, 0, 5, 7), strict=True)
        ],
    )
    phone.context.set_offline(False)
    conflict = queue.locator("[data-status='409']")
    expect(conflict).to_contain_text("Someone else changed this table's result")
    expect(conflict).to_contain_text("Conflict")
    expect(queue.locator("li")).to_have_count(0)  # out of the queue, never retried
    screenshot(phone, "offline-desk-conflict")
    scores = list(
        Seat.objects.filter(game=game).order_by("position").values_list("score", flat=True)
    )
    assert scores == [-10, 0, -5, -7]  # the other desk's result stands

    phone.reload()  # the conflict stays listed until the organiser dismisses it
    expect(conflict).to_be_visible()
    conflict.get_by_role("button", name="Dismiss").click()
    expect(queue).to_be_hidden()


def server_has(page, condition, seconds: int = 30) -> bool:
    """Wait until ``condition()`` (a database read) holds, checking every 100 ms while the page
    runs, at most ``seconds``."""
    for _ in range(seconds * 10):
        if condition():
            return True
        page.wait_for_timeout(100)
    return bool(condition())


def until(page, condition: str, seconds: int = 20) -> bool:
    """Wait in the page until ``condition`` (an expression, ``await`` allowed) holds: checked
    every 50 ms, at most ``seconds``. (Playwright's wait_for_function evaluates a string, which
    the app's Content-Security-Policy forbids.)"""
    return bool(
        page.evaluate(
            "async ([limit]) => { const end = Date.now() + limit;"
            f" while (Date.now() < end) {{ if ({condition}) return true;"
            " await new Promise(r => setTimeout(r, 50)); } return false; }",
            [seconds * 1000],
        )
    )


def _board_of_four(live_server, desk_page):
    """Four checked-in players at one board, two games each; the desk's score entry open."""
    organiser = UserFactory(username="desk")
    event = EventFactory(name="Tallinn Games", slug="tallinn", organisers=[organiser])
    competition = SjoelenFactory(
        event=event,
        name="Sjoelen",
        slug="sjoelen",
        settings={"games": 2, "boards": 1, "bonus_disc": False},
    )
    entries = [
        EntryFactory(
            competition=competition, player=PlayerFactory(name=name), checked_in_at=timezone.now()
        )
        for name in ("Anna", "Bert", "Cees", "Dirk")
    ]
    phone = desk_page("desk")
    phone.goto(f"{live_server.url}/desk/tallinn/sjoelen/sjoelen/?board=1")
    expect(phone.locator("#current-player")).to_be_visible()
    return entries, phone


def test_save_and_next_offline_goes_to_the_boards_next_player_as_online(desk_page, live_server):
    """Offline, "Save and next" once kept the player and raised the game number, booking a
    board's four players as one player's games. Now the next player comes as online."""
    entries, phone = _board_of_four(live_server, desk_page)
    heading, number = phone.locator("#current-player"), phone.locator("#id_number")
    online_order = phone.locator("ol.queue li").evaluate_all(
        "items => items.map(li => li.querySelector('a').textContent.trim())"
    )
    phone.context.set_offline(True)
    typed = []
    for step in range(6):  # four first games, then two second games
        name = heading.inner_text()
        game = int(number.input_value())
        typed.append((name, game))
        _enter(phone, GAMES[step % 3])
        expect(phone.locator("#offline-queue h2")).to_have_text(f"Waiting to send ({step + 1})")
        expect(heading).not_to_have_text(name)  # the next player, not the same one again
    assert typed == [(n, 1) for n in online_order] + [(n, 2) for n in online_order[:2]]
    screenshot(phone, "offline-desk-next-player")

    phone.context.set_offline(False)
    expect(phone.locator("#offline-queue")).to_be_hidden()
    by_name = {e.player.name: e for e in entries}
    for name, game in typed:
        assert Turn.objects.filter(entry=by_name[name], number=game).exists(), (name, game)
    assert Turn.objects.count() == 6


def test_the_score_entry_page_reloads_offline_and_logging_out_forgets_it(desk_page, live_server):
    entry, phone = _sjoelen(live_server, desk_page)
    # The page registers the service worker; from the next load on it is in charge and keeps a
    # copy of each desk page it serves.
    assert until(phone, "(await navigator.serviceWorker.ready).active.state === 'activated'")
    phone.reload()
    assert until(phone, "!!navigator.serviceWorker.controller")
    expect(phone.locator("#current-player")).to_have_text("Õie Sööt")
    entry.player.name = "Renamed Meanwhile"
    entry.player.save()

    phone.context.set_offline(True)
    phone.reload()  # from the worker's copy: the name as it was, the form ready
    expect(phone.locator("#current-player")).to_have_text("Õie Sööt")
    _enter(phone, GAMES[0])
    expect(phone.locator("#offline-queue h2")).to_have_text("Waiting to send (1)")
    screenshot(phone, "offline-desk-reloaded")
    phone.context.set_offline(False)
    expect(phone.locator("#offline-queue")).to_be_hidden()
    assert _arrived(entry) == [(1, SCORES[0])]

    assert until(phone, "await caches.has('desk-pages-v1')")
    phone.click("form[action$='/accounts/logout/'] button")
    expect(phone.locator("a[href$='/accounts/login/']").first).to_be_visible()
    assert until(phone, "!(await caches.has('desk-pages-v1'))")
    assert not phone.evaluate("async () => await caches.has('desk-pages-v1')")


def test_a_result_queued_when_the_session_ended_is_kept_and_sent_after_login(
    desk_page, live_server
):
    from django.contrib.sessions.models import Session

    entry, phone = _sjoelen(live_server, desk_page)
    phone.context.set_offline(True)
    _enter(phone, GAMES[0])
    queue = phone.locator("#offline-queue")
    expect(queue.locator("h2")).to_have_text("Waiting to send (1)")
    Session.objects.all().delete()  # the session ends while the desk is offline

    phone.context.set_offline(False)
    expect(queue.locator("[data-offline-login]")).to_be_visible()
    expect(queue.locator("li")).to_have_count(1)  # kept, not dropped
    assert _arrived(entry) == []

    phone.goto(f"{live_server.url}/accounts/login/?next=/desk/tallinn/sjoelen/sjoelen/")
    phone.fill("input[name=login]", "desk")
    phone.fill("input[name=password]", "pw-for-tests-only")
    phone.click("button[type=submit]")
    expect(phone.locator("#current-player")).to_be_visible()
    # The reloaded page sends its queue: wait for the server to have it (the queue's box may
    # not be drawn yet when the page is, so its being hidden proves nothing by itself).
    assert server_has(phone, lambda: _arrived(entry) == [(1, SCORES[0])])
    expect(phone.locator("#offline-queue")).to_be_hidden()
