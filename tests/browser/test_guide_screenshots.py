"""The organiser's guide's pictures (docs/guide/), taken from the loaded demo as a visitor, a
player, the organiser and site staff see it, at a phone's width (390 px) and a laptop's (1280 px).

Each page must show what the guide says it shows (its heading, or the part the picture is of)
before its picture is taken. By default the pictures go to a temporary folder, so the suite
only checks the pages; with ``GUIDE_SHOTS=1`` (``make screenshots``) they are written to
``docs/guide/images/<name>-390.png`` and ``-1280.png``, the files the guide links. The pictures
are of the viewport only (not the whole page): small files, the top of the page as it opens.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from django.test import override_settings
from django.test.utils import modify_settings
from django.urls import reverse
from django.utils import timezone
from PIL import Image
from playwright.sync_api import expect
from pytest_django.live_server_helper import LiveServer

from events.models import Competition, Entry, Game
from events.signups.models import SignUp, SignUpWindow
from events.signups.services.mail import person_token
from roundrobin.models import PlayerToken
from shuffleboard.models import Turn
from tests.support import totp
from tests.support.browser import log_in

# Not a transactional database: the demo is loaded and committed once for the module and
# flushed at its end (as the accessibility journey does); each test is rolled back after it.
pytestmark = [pytest.mark.browser, pytest.mark.django_db]

ROOT = Path(__file__).resolve().parents[2]
IMAGES = ROOT / "docs" / "guide" / "images"
WIDTHS = {390: {"width": 390, "height": 844}, 1280: {"width": 1280, "height": 800}}
PASSWORD = "pw-for-tests-only"


@dataclass(frozen=True)
class Shot:
    """A picture of the guide: ``name`` (its file's stem), the page, who looks at it, and what
    must be visible before it is taken (``text`` in ``locator``)."""

    name: str
    path: str
    text: str
    who: str = "visitor"  # visitor, player (the private link first), organiser, admin
    locator: str = "h1"
    # optional: something to do on the page before the picture (type, scroll)
    act: Callable | None = field(default=None, compare=False)


@dataclass(frozen=True)
class World:
    base: str
    private_link: str
    shots: tuple[Shot, ...]


def _type_in_check_in(page) -> None:
    box = page.locator("#checkin-filter")
    box.scroll_into_view_if_needed()
    box.fill("a")
    page.locator("#players").evaluate("panel => panel.scrollIntoView()")


def _shots() -> tuple[Shot, ...]:
    """The pages the guide shows, found in the loaded demo."""
    competitions = {c.format: c for c in Competition.objects.select_related("event")}
    sjoelen, blokus, league = (
        competitions["shuffleboard"],
        Competition.objects.select_related("event").get(slug="blokus-tournament"),
        competitions["roundrobin"],
    )
    cup = Competition.objects.select_related("event").get(event__slug="autumn-cup")
    s_args = [sjoelen.event.slug, sjoelen.slug]
    b_args = [blokus.event.slug, blokus.slug]
    r_args = [league.event.slug, league.slug]
    sjoelen_player = Entry.objects.filter(competition=sjoelen).order_by("number", "pk").first()
    blokus_player = Entry.objects.filter(competition=blokus).order_by("number", "pk").first()
    blokus_game = (
        Game.objects.filter(round__session__competition=blokus, round__session__number=1)
        .order_by("pk")
        .first()
    )
    turn = Turn.objects.filter(entry__competition=sjoelen).order_by("pk").first()
    sign_up = SignUp.objects.filter(window__competition=cup, status="confirmed").order_by("pk")[0]
    assert sjoelen_player and blokus_player and blokus_game and turn
    person = reverse("events:signup_person", args=[person_token(sign_up.email)])
    return (
        # what everyone sees
        Shot("front-page", "/", "Tabletop Desk", locator="header"),
        Shot("club-page", "/c/kalamaja/", "Kalamaja"),
        Shot("event-page", f"/e/{sjoelen.event.slug}/", sjoelen.event.name),
        Shot("sjoelen-standings", reverse("shuffleboard:standings", args=s_args), sjoelen.name),
        Shot(
            "sjoelen-player",
            reverse("shuffleboard:player", args=[*s_args, sjoelen_player.pk]),
            sjoelen_player.player.public_name,
        ),
        Shot("blokus-overview", reverse("blokus:overview", args=b_args), blokus.name),
        Shot("blokus-session", reverse("blokus:session", args=[*b_args, 1]), "Qualifying"),
        Shot(
            "blokus-player",
            reverse("blokus:player", args=[*b_args, blokus_player.pk]),
            blokus_player.player.public_name,
        ),
        Shot("roundrobin-tables", reverse("roundrobin:tables", args=r_args), "Tables"),
        Shot("roundrobin-private-page", "", "", who="player", locator="main"),
        Shot(
            "sjoelen-screen",
            reverse("shuffleboard:screen", args=s_args),
            sjoelen.name,
            locator="body",
        ),
        Shot("blokus-screen", reverse("blokus:screen", args=b_args), blokus.name, locator="body"),
        Shot("results-sheet", reverse("results_sheet", args=s_args), sjoelen.name),
        Shot("sign-up-form", reverse("events:signup", args=[cup.event.slug]), "Sign up"),
        Shot("sign-up-person-page", person, sign_up.name, locator="main"),
        Shot("series-page", "/series/sjoelen-series-2026/", "Sjoelen series 2026"),
        # the organiser's desk
        Shot("desk-home", "/desk/", "Your events", who="organiser"),
        Shot("desk-event", f"/desk/{sjoelen.event.slug}/?all", sjoelen.event.name, who="organiser"),
        Shot("desk-competition", sjoelen.get_desk_url(), sjoelen.name, who="organiser"),
        Shot(
            "desk-check-in",
            cup.get_desk_url(),
            "Check in",
            who="organiser",
            locator="#players",
            act=_type_in_check_in,
        ),
        Shot(
            "desk-sjoelen-entry",
            reverse("shuffleboard:entry", args=s_args) + "?board=1",
            "Score entry",
            who="organiser",
        ),
        Shot(
            "desk-sjoelen-correction",
            reverse("shuffleboard:turn", args=[*s_args, turn.pk]),
            turn.entry.player.name,
            who="organiser",
            locator="main",
        ),
        Shot(
            "desk-blokus", reverse("blokus:desk", args=b_args), "Tournament desk", who="organiser"
        ),
        Shot(
            "desk-blokus-session",
            reverse("blokus:desk_session", args=[*b_args, 1]),
            "Qualifying",
            who="organiser",
        ),
        Shot(
            "desk-blokus-result",
            reverse("blokus:game_result", args=[*b_args, blokus_game.pk]),
            "Table",
            who="organiser",
        ),
        Shot(
            "desk-roundrobin-tables",
            reverse("roundrobin:desk", args=r_args),
            "Tables",
            who="organiser",
        ),
        Shot(
            "desk-roundrobin-table",
            reverse("roundrobin:desk_table", args=[*r_args, 1]),
            "Table 1",
            who="organiser",
        ),
        Shot(
            "desk-sign-ups",
            reverse("events:signup_desk", args=[cup.event.slug, cup.slug]),
            "sign-up",
            who="organiser",
        ),
        Shot(
            "desk-door-screen",
            reverse("events:door_screen", args=[cup.event.slug, cup.slug]),
            "Check yourself in",
            who="organiser",
            locator="main",
        ),
        Shot("desk-people", f"/desk/{sjoelen.event.slug}/people/", "People", who="organiser"),
        Shot(
            "desk-club-people", "/desk/clubs/kalamaja/people/", "People and roles", who="organiser"
        ),
        Shot("desk-series", "/desk/series/", "Series", who="organiser"),
        Shot("desk-import", reverse("events:csv_import", args=s_args), "Import", who="organiser"),
        Shot("account-two-factor", "/accounts/2fa/", "Two-Factor", who="organiser"),
        # site staff
        Shot("admin", "/admin/", "Site administration", who="admin", locator="body"),
    )


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker) -> Iterator[World]:
    """The demo loaded and committed once for the module, and a live server of its own."""
    with django_db_blocker.unblock():
        # the flush below empties the database it runs on: only ever the test database
        in_memory = connection.vendor == "sqlite" and connection.is_in_memory_db()
        assert in_memory or "test" in connection.settings_dict["NAME"]
        try:
            with override_settings(DEBUG=True):  # load_demo refuses to run with DEBUG off
                call_command("load_demo", stdout=open(os.devnull, "w"))  # noqa: SIM115
            for username in ("organiser", "admin"):
                user = get_user_model().objects.get(username=username)
                user.set_password(PASSWORD)
                user.save()
                # the pages with people's addresses ask for a second factor: give one, so the
                # pictures show the pages, not the request to turn it on
                totp.turn_on(user)
            # the door screen shows its code while self check-in is open
            now = timezone.now()
            SignUpWindow.objects.filter(competition__event__slug="autumn-cup").update(
                self_check_in_from=now - timedelta(hours=1),
                self_check_in_until=now + timedelta(hours=3),
            )
            # a player with a game in play: their private page shows the move to send
            token = (
                PlayerToken.objects.filter(entry__seats__game__status=Game.Status.PLAYING)
                .order_by("pk")
                .first()
            )
            assert token is not None
            found = World(base="", private_link=f"/p/{token.token}/", shots=_shots())
            server = LiveServer("localhost")
            try:
                with modify_settings(ALLOWED_HOSTS={"append": "localhost"}):
                    yield replace(found, base=server.url)
            finally:
                server.stop()
        finally:
            call_command("flush", interactive=False, verbosity=0)


def smaller(path: Path) -> None:
    """64 colours, no dithering: a third of the bytes, and the text as sharp (a page is flat
    colour)."""
    with Image.open(path) as image:
        small = image.convert("RGB").quantize(
            colors=64, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
        )
    small.save(path, optimize=True)


@pytest.fixture
def folder(tmp_path) -> Path:
    if os.environ.get("GUIDE_SHOTS") == "1":
        IMAGES.mkdir(parents=True, exist_ok=True)
        return IMAGES
    return tmp_path


@pytest.mark.parametrize("width", sorted(WIDTHS))
def test_the_guide_pictures_show_their_pages(world, browser, folder, width):
    contexts = {}

    def page_of(who: str):
        if who not in contexts:
            context = browser.new_context(
                viewport=WIDTHS[width], locale="en-GB", color_scheme="light"
            )
            context.set_default_timeout(20_000)  # a busy 2-core machine; ends at the condition
            page = context.new_page()
            if who in ("organiser", "admin"):
                log_in(page, world.base, who, PASSWORD)
            contexts[who] = page
        return contexts[who]

    taken: list[Path] = []
    problems: list[str] = []
    try:
        for shot in world.shots:
            page = page_of(shot.who)
            page.goto(world.base + (world.private_link if shot.who == "player" else shot.path))
            page.wait_for_load_state("load")
            assert page.url.startswith(world.base), page.url
            target = page.locator(shot.locator).first
            try:
                expect(target).to_be_visible()
                if shot.text:
                    expect(target).to_contain_text(re.compile(re.escape(shot.text), re.I))
                if shot.act is not None:
                    shot.act(page)
            except AssertionError as error:  # every page's problem in one run, not the first's
                problems.append(f"{shot.name} ({page.url}): {str(error).splitlines()[0]}")
                continue
            path = folder / f"{shot.name}-{width}.png"
            page.screenshot(path=path, full_page=False, animations="disabled", caret="initial")
            smaller(path)
            taken.append(path)
    finally:
        for page in contexts.values():
            page.context.close()
    assert not problems, "\n".join(problems)
    assert len(taken) == len(world.shots)
    assert all(path.stat().st_size > 1000 for path in taken)
