"""Every page of the demo in a real browser: axe-core's WCAG 2.2 AA rules
(``axe-playwright-python`` bundles axe-core) with zero violations, in light and in dark mode:
the public and player pages at 360 px, the desk at 1280 px and at 360 px, the projector
screens at 1920 px; and no public or desk page wider than a 360 px phone (a wide table scrolls
in its own box), with a few demo names 40 letters long and unbroken. The light pass reads the
pages in English, the dark pass in Dutch (the longest words of our four languages): the width
is checked in both, at no extra page load. The desk's two entry forms are also checked as they
look mid-entry (in English): the sjoelen score entry with its live score shown, a Blokus result
typed and tapped with its preview.

The pages are found as a player and an organiser would find them: a crawl of the loaded demo
from ``/``, a round-robin player's private link and ``/desk/``, one page per URL pattern.
The demo is loaded and crawled once for the module (loading it takes half a minute on a busy
machine) and served by a live server of the module's own; each test is one colour scheme.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, replace
from urllib.parse import urljoin, urlsplit

import pytest
from axe_playwright_python.base import AXE_FILE_PATH
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import modify_settings
from django.urls import Resolver404, resolve, reverse
from playwright.sync_api import expect
from pytest_django.live_server_helper import LiveServer

from events.models import Competition, Entry, Game
from events.signups.models import SignUp
from roundrobin.models import PlayerToken
from tests.support.browser import DESK, log_in, screenshot, too_wide, violations
from tests.support.pages import SKIP_PREFIXES, SKIP_SUFFIXES, links_in

# Not a transactional database: pytest-django flushes that after every test, and the module's
# world below is committed once and flushed at the module's end. Each test runs in a
# transaction rolled back after it (the logins' sessions).
pytestmark = [pytest.mark.browser, pytest.mark.django_db]

SMALL_PHONE = {"width": 360, "height": 740}
PROJECTOR = {"width": 1920, "height": 1080}
SCHEMES = ["light", "dark"]
# Each scheme's pass reads the pages in its own language: the width is checked in both.
LOCALES = {"light": "en-GB", "dark": "nl-NL"}
# Names of 40 letters with no break: they must wrap, never widen a phone's page.
LONG_NAMES = [
    "Wolfeschlegelsteinhausenbergerdorffvoral",
    "Hubertblaineweissensteinhausenbergerdorf",
    "Mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm",
]
PASSWORD = "pw-for-tests-only"


def _route(path: str) -> str | None:
    try:
        return str(resolve(urlsplit(path).path).route)
    except Resolver404:
        return None


def kind(url: str) -> tuple[str, str] | None:
    """A page's kind: its URL pattern and its event (each demo event is another format, and
    the event and competition pages show each format's own parts)."""
    route = _route(url)
    if route is None:
        return None
    parts = urlsplit(url).path.strip("/").split("/")
    event = parts[1] if len(parts) > 1 and parts[0] in ("e", "desk") else ""
    return route, event


def crawl(client: Client, starts: list[str], *, desk: bool) -> list[str]:
    """One address per kind of page, breadth first from ``starts``: the desk's own pages with
    ``desk``, else every page but the desk's."""
    seen: set[str] = set()
    per_kind: dict[tuple[str, str], int] = defaultdict(int)
    queue = list(starts)
    pages: list[str] = []
    while queue:
        url = queue.pop(0)
        route = kind(url)
        if url in seen or route is None or per_kind[route]:
            continue
        seen.add(url)
        if url.startswith("/desk/") != desk or url.startswith(SKIP_PREFIXES):
            continue
        response = client.get(url)
        if response.status_code in (301, 302, 303):
            queue.append(urljoin(url, response["Location"]))
            continue
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        html = response.content.decode()
        if urlsplit(url).path.endswith(SKIP_SUFFIXES) or "<html" not in html:
            continue  # a download, or a fragment a page loads (the Blokus clock box)
        per_kind[route] += 1
        pages.append(url)
        queue.extend(sorted(set(links_in(html, url))))
    return pages


def long_names() -> None:
    """The first player of each competition and the first online sign-ups get a long name."""
    for competition in Competition.objects.order_by("pk"):
        entry = Entry.objects.filter(competition=competition).order_by("pk").first()
        if entry is not None:
            entry.player.name = LONG_NAMES[competition.pk % 2]
            entry.player.save()
    for sign_up, name in zip(SignUp.objects.order_by("pk"), LONG_NAMES, strict=False):
        sign_up.name = name
        sign_up.save()


@dataclass(frozen=True)
class World:
    base: str
    organiser: str
    private_link: str
    public_pages: list[str]
    desk_pages: list[str]
    screens: list[str]
    sjoelen_entry: str
    blokus_result: str
    shots: frozenset[str]  # pages kept as screenshots at 360 px for humans to look at


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker) -> Iterator[World]:
    """The demo loaded and committed once for the module, its pages found, a live server."""
    with django_db_blocker.unblock():
        # the flush below empties the database it runs on: only ever the test database
        in_memory = connection.vendor == "sqlite" and connection.is_in_memory_db()
        assert in_memory or "test" in connection.settings_dict["NAME"]
        try:
            yield from _serve(_load())
        finally:
            call_command("flush", interactive=False, verbosity=0)


def _load() -> World:
    with override_settings(DEBUG=True):  # load_demo refuses to run with DEBUG off
        call_command("load_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    long_names()
    organiser = get_user_model().objects.get(username="organiser")
    organiser.set_password(PASSWORD)
    organiser.save()
    token = (
        PlayerToken.objects.filter(entry__seats__game__status=Game.Status.PLAYING)
        .order_by("pk")
        .first()
    )
    assert token is not None
    private_link = f"/p/{token.token}/"
    player = Client()
    first = player.get(private_link)
    assert first.status_code in (302, 303)
    public_pages = crawl(player, ["/", first["Location"]], desk=False)
    assert len(public_pages) >= 20, public_pages  # 24 kinds in the demo today
    desk = Client()
    desk.force_login(organiser)
    desk_pages = crawl(desk, ["/desk/"], desk=True)
    assert len(desk_pages) >= 20, desk_pages
    competitions = list(Competition.objects.select_related("event").order_by("pk"))
    screens = [
        reverse(c.game_format.screen, args=[c.event.slug, c.slug])
        for c in competitions
        if c.game_format.screen
    ]
    assert screens
    sjoelen = next(c for c in competitions if c.game_format.key == "shuffleboard")
    # a result entered at the last table of the demo's Blokus (its games are all finished:
    # the form shows the stored result, typed over below)
    game = (
        Game.objects.filter(round__session__competition__format="blokus")
        .select_related("round__session__competition__event")
        .order_by("-pk")
        .first()
    )
    assert game is not None
    blokus = game.round.session.competition
    return World(
        base="",  # the live server's, once it runs
        organiser=organiser.username,
        private_link=private_link,
        public_pages=public_pages,
        desk_pages=desk_pages,
        screens=screens,
        sjoelen_entry=reverse("shuffleboard:entry", args=[sjoelen.event.slug, sjoelen.slug]),
        blokus_result=reverse("blokus:game_result", args=[blokus.event.slug, blokus.slug, game.pk]),
        shots=frozenset(
            (
                sjoelen.get_desk_url(),
                reverse("shuffleboard:standings", args=[sjoelen.event.slug, sjoelen.slug]),
            )
        ),
    )


def _serve(found: World) -> Iterator[World]:
    server = LiveServer("localhost")
    try:
        with modify_settings(ALLOWED_HOSTS={"append": "localhost"}):
            yield replace(found, base=server.url)
    finally:
        server.stop()


@pytest.fixture
def context_for(browser) -> Iterator:
    """``context_for(scheme, viewport)``: a fresh browser context, closed after the test, in the
    scheme's language (``LOCALES``) unless ``locale`` says otherwise."""
    contexts: list = []

    def open_context(scheme: str, viewport: dict, locale: str | None = None):
        context = browser.new_context(
            viewport=viewport, locale=locale or LOCALES[scheme], color_scheme=scheme
        )
        context.set_default_timeout(20_000)  # a busy 2-core CI machine; ends at the condition
        context.add_init_script(path=AXE_FILE_PATH)
        contexts.append(context)
        return context

    yield open_context
    for context in contexts:
        context.close()


def check(page, world: World, urls: list[str], scheme: str, *, fit: bool = False) -> list[str]:
    """axe on every page; with ``fit``, no page wider than the phone either."""
    problems = []
    for url in urls:
        page.goto(world.base + url)
        page.wait_for_load_state("load")
        if fit:
            problems += too_wide(page, url, scheme)
            if url in world.shots:
                screenshot(page, f"a11y-360-{LOCALES[scheme]}" + url.replace("/", "_"))
        problems += [f"[{scheme}] {line}" for line in violations(page, url)]
    return problems


@pytest.mark.parametrize("scheme", SCHEMES)
def test_public_and_player_pages_meet_wcag_22_aa_and_fit_360(world, context_for, scheme):
    page = context_for(scheme, SMALL_PHONE).new_page()
    page.goto(world.base + world.private_link)  # the player's cookie, as on their phone
    # the check itself works: it finds a known fault
    page.evaluate("document.body.insertAdjacentHTML('beforeend', '<img src=x.png>')")
    assert any("image-alt" in line for line in violations(page, "probe"))
    problems = check(page, world, world.public_pages, scheme, fit=True)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("viewport", [DESK, SMALL_PHONE], ids=["1280", "360"])
@pytest.mark.parametrize("scheme", SCHEMES)
def test_desk_pages_meet_wcag_22_aa(world, context_for, scheme, viewport):
    page = context_for(scheme, viewport).new_page()
    log_in(page, world.base, world.organiser, PASSWORD)
    problems = check(page, world, world.desk_pages, scheme, fit=viewport == SMALL_PHONE)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("scheme", SCHEMES)
def test_projector_screens_meet_wcag_22_aa(world, context_for, scheme):
    page = context_for(scheme, PROJECTOR).new_page()
    problems = check(page, world, world.screens, scheme)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("scheme", SCHEMES)
def test_the_entry_forms_meet_wcag_22_aa_mid_entry(world, context_for, scheme):
    """The parts an entry shows only once typed into: the sjoelen live score, a Blokus hand
    with pieces tapped and the result's preview table."""
    page = context_for(scheme, SMALL_PHONE, "en-GB").new_page()  # it reads the English labels
    log_in(page, world.base, world.organiser, PASSWORD)
    problems: list[str] = []

    page.goto(world.base + world.sjoelen_entry)
    for gate, count in zip((2, 3, 4, 1), (9, 5, 7, 5), strict=True):
        page.fill(f"#id_gate{gate}", str(count))
    expect(page.locator("#preview")).to_contain_text("116")
    screenshot(page, f"a11y-sjoelen-entry-preview-{scheme}")
    problems += [f"[{scheme}] {line}" for line in violations(page, world.sjoelen_entry)]

    page.goto(world.base + world.blokus_result)
    hands = page.locator("fieldset.hand")
    hands.nth(0).locator("input.squares").fill("0")
    hands.nth(0).get_by_label("Monomino last").check()
    hands.nth(1).locator("details").evaluate("details => { details.open = true; }")
    for piece in ("I2", "V3"):  # tapped on the pieces picture
        if not hands.nth(1).locator(f"input[value={piece}]").is_checked():
            hands.nth(1).locator(f"label[title={piece}]").click()
    hands.nth(2).locator("input.squares").fill("5")
    hands.nth(3).locator("input.squares").fill("12")
    expect(page.locator("#preview")).to_contain_text("+5")
    hands.nth(1).locator("label[title=V3] input").focus()  # the focus ring on a piece
    screenshot(page, f"a11y-blokus-result-entry-{scheme}")
    problems += [f"[{scheme}] {line}" for line in violations(page, world.blokus_result)]
    assert not problems, "\n".join(problems)
