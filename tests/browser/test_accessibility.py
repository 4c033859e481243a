"""Every page of the demo in a real browser (issue 28, item 8): axe-core's WCAG 2.2 AA rules
(``axe-playwright-python`` bundles axe-core) on the public and player pages in light and dark
mode at 360 px, on the desk at 1280 px and on the projector screens at 1920 px, with zero
violations; and no public page wider than a 360 px phone (a wide table scrolls in its own box).

The pages are found as a player and an organiser would find them: a crawl of the loaded demo
from ``/``, a round-robin player's private link and ``/desk/``, one page per URL pattern.
"""

from __future__ import annotations

from collections import defaultdict
from urllib.parse import urljoin, urlsplit

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client, override_settings
from django.urls import Resolver404, resolve, reverse

from events.models import Competition, Game
from roundrobin.models import PlayerToken
from tests.browser.conftest import DESK, log_in, screenshot
from tests.test_translated_pages import SKIP_PREFIXES, SKIP_SUFFIXES, _links

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SMALL_PHONE = {"width": 360, "height": 740}
PROJECTOR = {"width": 1920, "height": 1080}
WCAG_22_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
AXE = Axe()


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
        queue.extend(sorted(set(_links(html, url))))
    return pages


def violations(page, url: str) -> list[str]:
    results = AXE.run(page, options={"runOnly": {"type": "tag", "values": WCAG_22_AA}})
    found = []
    for violation in results.response["violations"]:
        targets = [" ".join(node["target"]) for node in violation["nodes"][:3]]
        found.append(f"{url}: {violation['id']} ({violation['impact']}) at {targets}")
    return found


def wider_than_the_phone(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth > window.innerWidth")


@pytest.fixture
def loaded_demo():
    with override_settings(DEBUG=True):  # load_demo refuses to run with DEBUG off
        call_command("load_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    organiser = get_user_model().objects.get(username="organiser")
    organiser.set_password("pw-for-tests-only")
    organiser.save()
    token = (
        PlayerToken.objects.filter(entry__seats__game__status=Game.Status.PLAYING)
        .order_by("pk")
        .first()
    )
    assert token is not None
    return organiser, f"/p/{token.token}/"


def test_public_and_player_pages_meet_wcag_22_aa_in_light_and_dark_and_fit_360(
    browser, live_server, loaded_demo
):
    _organiser, private_link = loaded_demo
    player = Client()
    first = player.get(private_link)
    assert first.status_code in (302, 303)
    pages = crawl(player, ["/", first["Location"]], desk=False)
    assert len(pages) >= 20, pages  # 24 kinds in the demo today
    problems: list[str] = []
    for scheme in ("light", "dark"):
        context = browser.new_context(viewport=SMALL_PHONE, locale="en-GB", color_scheme=scheme)
        context.set_default_timeout(20_000)
        page = context.new_page()
        page.goto(live_server.url + private_link)  # the player's cookie, as on their phone
        if scheme == "light":  # the check itself works: it finds a known fault
            page.evaluate("document.body.insertAdjacentHTML('beforeend', '<img src=x.png>')")
            assert any("image-alt" in line for line in violations(page, "probe"))
        for url in pages:
            page.goto(live_server.url + url)
            page.wait_for_load_state("load")
            if scheme == "light" and wider_than_the_phone(page):
                width = page.evaluate("document.documentElement.scrollWidth")
                problems.append(f"{url}: {width} px wide on a 360 px phone")
                screenshot(page, "too-wide" + url.replace("/", "_"))
            problems += [f"[{scheme}] {line}" for line in violations(page, url)]
        context.close()
    assert not problems, "\n".join(problems)


def test_desk_and_projector_pages_meet_wcag_22_aa(browser, live_server, loaded_demo):
    organiser, _private_link = loaded_demo
    desk = Client()
    desk.force_login(organiser)
    desk_pages = crawl(desk, ["/desk/"], desk=True)
    assert len(desk_pages) >= 20, desk_pages
    screens = [
        reverse(c.game_format.screen, args=[c.event.slug, c.slug])
        for c in Competition.objects.select_related("event")
        if c.game_format.screen
    ]
    assert screens
    problems: list[str] = []
    context = browser.new_context(viewport=DESK, locale="en-GB")
    context.set_default_timeout(20_000)
    page = context.new_page()
    log_in(page, live_server.url, organiser.username)
    for url in desk_pages:
        page.goto(live_server.url + url)
        page.wait_for_load_state("load")
        problems += violations(page, url)
    page.set_viewport_size(PROJECTOR)
    for url in screens:
        page.goto(live_server.url + url)
        page.wait_for_load_state("load")
        problems += violations(page, url)
    context.close()
    assert not problems, "\n".join(problems)
