"""The desk runs a Blokus side event with three families kept apart: it turns the option on in
the settings, marks the families on the group page, seats and draws the session, sees every
table apart (and says so), and draws round 1 again after the confirmation. The desk's pages are
axe-clean and fit a 360 px phone in light and dark mode (screenshots in var/screenshots/); the
dark run reads the pages in Swedish, its steps found by the catalogue's words."""

from __future__ import annotations

from itertools import combinations

import pytest
from axe_playwright_python.base import AXE_FILE_PATH
from playwright.sync_api import expect

from blokus import services
from events.models import Round, Seat
from tests.support.browser import in_language, log_in, screenshot, violations
from tests.support.factories import (
    CompetitionFactory,
    EntryFactory,
    EventFactory,
    PlayerFactory,
    UserFactory,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SMALL_PHONE = {"width": 360, "height": 740}
FAMILIES = {
    "Berg": ["Anna Berg", "Erik Berg", "Maja Berg"],
    "Lind": ["Oskar Lind", "Linnea Lind", "Karl Lind"],
    "Ek": ["Ebba Ek", "Viktor Ek", "Sara Ek"],
    "": ["Ida Holm", "Nils Strand", "Vera Sjö"],
}


def families_apart(round_: Round) -> bool:
    family = {name: group for group, names in FAMILIES.items() for name in names}
    tables: dict[int, list[str]] = {}
    for number, name in Seat.objects.filter(game__round=round_).values_list(
        "game__number", "entry__player__name"
    ):
        tables.setdefault(number, []).append(name)
    return all(
        not family[a] or family[a] != family[b]
        for table in tables.values()
        for a, b in combinations(table, 2)
    )


def fits_and_is_clean(page, name: str) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= SMALL_PHONE["width"]
    found = violations(page, page.url)
    assert not found, "\n".join(found)
    screenshot(page, name)


@pytest.mark.parametrize(("scheme", "language"), [("light", "en"), ("dark", "sv")])
def test_the_desk_seats_three_families_apart_and_draws_again(
    browser, live_server, scheme, language
):
    t = in_language(language)
    event = EventFactory(name="Spelkväll", slug="kvall", organisers=[UserFactory(username="desk")])
    competition = CompetitionFactory(
        event=event, name="Blokus side event", slug="blokus", settings={"rounds_per_session": 2}
    )
    services.sessions_set_up(competition=competition, roll_calls=[None] * 4)
    for names in FAMILIES.values():
        for name in names:
            EntryFactory(competition=competition, player=PlayerFactory(name=name, club=""))
    base = live_server.url
    locale = {"en": "en-GB", "sv": "sv-SE"}[language]
    context = browser.new_context(viewport=SMALL_PHONE, locale=locale, color_scheme=scheme)
    context.set_default_timeout(20_000)
    context.add_init_script(path=AXE_FILE_PATH)
    page = context.new_page()
    try:
        log_in(page, base, "desk")
        # The option, in the competition's settings.
        page.goto(base + competition.get_desk_url())
        page.locator("#settings summary").click()
        page.get_by_label(t("Keep clubs and groups apart")).select_option("every_round")
        page.get_by_role("button", name=t("Save settings")).click()
        expect(page.locator(".messages")).to_contain_text(t("Settings saved."))
        # The families, on the group page the Blokus panel links to.
        page.locator("#groups-card a").click()
        expect(page.get_by_role("heading", name=t("Groups kept apart"))).to_be_visible()
        for group, names in FAMILIES.items():
            for name in names:
                if group:
                    page.get_by_label(t("Group of %(name)s", name=name)).fill(group)
        fits_and_is_clean(page, f"seating-groups-360-{scheme}")
        page.get_by_role("button", name=t("Save groups")).click()
        expect(page.locator(".messages")).to_contain_text(
            t("%(count)s group saved.", plural="%(count)s groups saved.", count=9)
        )

        # Session 1: everyone registered and checked in at the roll call, then seated.
        session = competition.sessions.get(number=1)
        for entry in competition.entries.all():
            sp = services.session_register(session=session, entry=entry)
            services.session_check_in(session_player=sp)
        page.goto(f"{base}/desk/kvall/blokus/blokus/s1/")
        page.get_by_role("link", name=t("Seat session…")).click()
        page.get_by_role("button", name=t("Confirm seating")).click()
        desk = page.locator("#session-desk")
        drawn_apart = t(
            'Tables drawn apart: players of one club or <a href="%(groups_url)s">group</a> at '
            "different tables where they can be (not a plain lot, R-BLK-25).",
            groups_url="",
        )
        expect(desk).to_contain_text(drawn_apart.split(":")[0])  # "Bord lottade isär"
        page.get_by_role("button", name=t("Draw round %(number)s", number=1)).click()
        expect(page.locator("#seating-report")).to_contain_text(
            t(
                "Round %(number)s was drawn apart: no two players of one club or group share a "
                "table.",
                number=1,
            )
        )
        round_ = Round.objects.get(session=session, number=1)
        assert families_apart(round_)
        fits_and_is_clean(page, f"seating-desk-round-1-360-{scheme}")

        # Drawn again, after the page that says what it does.
        seed = round_.seed
        page.locator("#redraw").click()
        expect(page.locator("main")).to_contain_text(
            t(
                "Players whose table or colour changes are told their new seat; the others "
                "hear nothing again."
            )
        )
        fits_and_is_clean(page, f"seating-redraw-360-{scheme}")
        page.get_by_role("button", name=t("Draw round %(number)s again", number=1)).click()
        expect(page.locator(".messages")).to_contain_text(
            t("Round %(number)s drawn again. Players whose seat changed are told.", number=1)
        )
        expect(page.locator("#seating-report")).to_be_visible()
        round_.refresh_from_db()
        assert round_.seed != seed and families_apart(round_)
    finally:
        context.close()
