"""Three journeys at 390 px, as a Swedish, an Estonian and a Dutch user.

The expected words come from the catalogues (Django's gettext under ``translation.override`` in
the test process), never from guesses: a catalogue change moves the test with it, and a string
left as its English msgid fails here (``t`` refuses an untranslated one).
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext
from playwright.sync_api import expect

from blokus import services as blokus_services
from roundrobin.models import PlayerToken
from tests.support.browser import PHONE, screenshot
from tests.support.factories import (
    CompetitionFactory,
    EntryFactory,
    EventFactory,
    PlayerFactory,
    UserFactory,
)
from tests.support.roundrobin import started_duel
from tests.support.shuffleboard import SjoelenFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def t(language: str, msgid: str, **values: object) -> str:
    """``msgid`` in ``language`` as the catalogue has it (``%(name)s`` filled from ``values``);
    fails when the catalogue still gives the English msgid back."""
    with translation.override(language):
        text = gettext(msgid)
    assert text != msgid, f"{language}: {msgid!r} is not translated"
    return text % values if values else text


def phone_context(browser, **options):
    context = browser.new_context(viewport=PHONE, **options)
    context.set_default_timeout(20_000)  # a busy 2-core machine; ends at the condition
    return context


def fits(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_the_blokus_desk_in_swedish(desk_page, live_server):
    organiser = UserFactory(username="desk")
    event = EventFactory(name="LinCon 2026", slug="lincon", organisers=[organiser])
    competition = CompetitionFactory(event=event, name="Blokus", slug="blokus")
    (session,) = blokus_services.sessions_set_up(competition=competition, roll_calls=[None])
    for name in ("Anna", "Erik", "Maja", "Oskar", "Linnea", "Karl", "Ebba", "Viktor", "Sara"):
        entry = EntryFactory(competition=competition, player=PlayerFactory(name=name))
        sp = blokus_services.session_register(session=session, entry=entry)
        blokus_services.session_check_in(session_player=sp)
    base = live_server.url
    desk = f"{base}/desk/lincon/blokus/blokus/s1/"
    page = desk_page("desk")
    page.goto(desk)
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.click("nav.lang a[lang=sv]")  # the footer's switcher
    page.wait_for_url(desk)
    expect(page.locator("html")).to_have_attribute("lang", "sv")

    page.get_by_role("link", name=t("sv", "Seat session…")).click()
    expect(page.locator("#seat-heading")).to_have_text(t("sv", "Seat session"))
    expect(page.locator("#preview-reserves")).to_contain_text("Sara")
    page.get_by_role("button", name=t("sv", "Confirm seating")).click()
    draw = t("sv", "Draw round %(number)s", number=1)
    page.get_by_role("button", name=draw).click()
    expect(page.locator("#rounds-heading").first).to_have_text(
        t("sv", "Round %(number)s of %(total)s", number=1, total=4)
    )
    expect(page.locator("html")).to_have_attribute("lang", "sv")
    fits(page)
    screenshot(page, "lang-sv-blokus-desk")


def test_sjoelen_score_entry_in_estonian(desk_page, live_server):
    organiser = UserFactory(username="desk")
    event = EventFactory(name="Tartu Sjoelen", slug="tartu", organisers=[organiser])
    competition = SjoelenFactory(
        event=event,
        name="Sjoelen",
        slug="sjoelen",
        settings={"games": 2, "boards": 1, "bonus_disc": False},
    )
    EntryFactory(
        competition=competition,
        player=PlayerFactory(name="Õie Sööt"),
        checked_in_at=timezone.now(),
    )
    base = live_server.url
    page = desk_page("desk", locale="et-EE")  # Accept-Language: et-EE
    page.goto(f"{base}/desk/tartu/sjoelen/sjoelen/")
    expect(page.locator("html")).to_have_attribute("lang", "et")
    expect(page.locator("#current-player")).to_have_text("Õie Sööt")
    saved = "Saved: %(player)s, game %(number)s: %(score)s."
    # The seed's example (2→9, 3→5, 4→7, 1→5) is 116; then one disc in gate 1: 1.
    for number, counts, score in ((1, (9, 5, 7, 5), 116), (2, (0, 0, 0, 1), 1)):
        expect(page.locator("#id_number")).to_have_value(str(number))
        if number > 1:  # the saved panel has settled: htmx has put the cursor in gate 2
            expect(page.locator("#id_gate2")).to_be_focused()
        for value, count in zip((2, 3, 4, 1), counts, strict=True):
            page.fill(f"#id_gate{value}", str(count))
        page.press("#id_gate1", "Enter")
        expect(page.locator("#entry-panel")).to_contain_text(
            t("et", saved, player="Õie Sööt", number=number, score=score)
        )
    fits(page)
    screenshot(page, "lang-et-sjoelen-entry")

    # The standings: 117 in two games, an average of 58.5 written the Estonian way.
    page.goto(f"{base}/e/tartu/sjoelen/sjoelen/")
    expect(page.locator("html")).to_have_attribute("lang", "et")
    standings = page.locator("#standings")
    expect(standings.locator("thead")).to_contain_text(t("et", "Total"))
    expect(standings.locator("thead")).to_contain_text(t("et", "Avg"))
    row = standings.locator("tbody tr").first
    expect(row).to_contain_text("117")
    expect(row).to_contain_text("58,5")
    expect(row).not_to_contain_text("58.5")
    fits(page)
    screenshot(page, "lang-et-sjoelen-standings")


def test_a_round_robin_private_page_in_the_players_dutch(browser, live_server):
    event = EventFactory(name="Correspondentie 2026", slug="corr")
    competition, game, white, black = started_duel(event, "halve", seed=5, now=timezone.now())
    for player in (white.player, black.player):
        player.language = "nl"
        player.save(update_fields=["language"])
    token = PlayerToken.objects.get(entry=black).token
    # A browser that asks for no language in particular: the player's own language decides.
    context = phone_context(browser, extra_http_headers={"Accept-Language": "*"})
    page = context.new_page()
    try:
        page.goto(live_server.url + reverse("roundrobin:private", args=[token]))
        expect(page.locator("html")).to_have_attribute("lang", "nl")
        card = page.locator(f"#game-{game.pk}")
        card.get_by_text(t("nl", "Report the result")).click()
        won = card.get_by_role(
            "button", name=t("nl", "I won against %(opponent)s", opponent=white.player.name)
        )
        expect(won).to_have_text(t("nl", "I won"))
        won.click()
        ask = page.locator(f"#confirm-claim-{game.pk}")
        with translation.override("nl"):
            black_colour = gettext("Black")
        expect(ask).to_contain_text(
            t(
                "nl",
                "Confirm: you won against %(opponent)s as %(colour)s?",
                opponent=white.player.name,
                colour=black_colour,
            )
        )
        fits(page)
        screenshot(page, "lang-nl-roundrobin-confirm")
        ask.get_by_role("button", name=t("nl", "Confirm")).click()
        expect(page.locator("#private-games .msg.success")).to_have_text(
            t("nl", "Result reported; it is recorded when your opponent reports the same.")
        )

        # White, Dutch too, confirms the loss from their own side: now it counts, 0-1.
        other = context.new_page()
        white_token = PlayerToken.objects.get(entry=white).token
        other.goto(live_server.url + reverse("roundrobin:private", args=[white_token]))
        expect(other.locator("html")).to_have_attribute("lang", "nl")
        mine = other.locator(f"#game-{game.pk}")
        mine.get_by_text(t("nl", "Report the result")).click()
        mine.get_by_role(
            "button", name=t("nl", "I lost against %(opponent)s", opponent=black.player.name)
        ).click()
        other.locator(f"#confirm-claim-{game.pk}").get_by_role(
            "button", name=t("nl", "Confirm")
        ).click()
        expect(other.locator("#private-games .msg.success")).to_have_text(
            t("nl", "Result recorded.")
        )
        page.reload()
        expect(page.locator(f"#game-{game.pk} .state")).to_contain_text("0-1")
        fits(page)
        screenshot(page, "lang-nl-roundrobin-recorded")
    finally:
        context.close()
