"""The browser tests' Chromium, page sizes, screenshots, a person's login and the
accessibility checks (axe-core's rules, a page no wider than the phone)."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

from django.contrib.auth import get_user_model

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
PHONE = {"width": 390, "height": 844}
DESK = {"width": 1280, "height": 900}
SIZES = {"phone": PHONE, "desk": DESK}
SHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"
# axe-core's rules for WCAG 2.2 AA, as the accessibility pass runs them.
WCAG_22_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
AXE_OPTIONS = {"runOnly": {"type": "tag", "values": WCAG_22_AA}, "resultTypes": ["violations"]}

# How long a test waits for a live page to follow a write: pages poll every 10 s, and a poll in
# flight when the write lands still shows the old state, so up to two polls plus a slow answer
# on a busy machine. A wait for a condition, not a sleep: it ends as soon as the page follows.
POLL_WAIT = 35_000


def screenshot(page, name: str) -> None:
    """Keep a look at the page for humans (var/screenshots/), as the brief asks."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SHOTS / f"{name}.png", full_page=True)


def log_in(page, base_url: str, username: str, password: str = "pw-for-tests-only") -> None:
    """Log in as a person does; with two-factor login on, the code their app shows now."""
    page.goto(f"{base_url}/accounts/login/")
    page.fill("#id_login", username)
    page.fill("#id_password", password)
    page.click("main button[type=submit]")
    page.wait_for_url(re.compile(r"/(desk|accounts/2fa/authenticate)/$"))
    if "/2fa/" in page.url:
        second_factor(page, username)
        # "Trust this browser?": the event's laptop is trusted for the day.
        page.get_by_role("button", name=re.compile("Trust for")).click()
    page.wait_for_url(f"{base_url}/desk/")


def second_factor(page, username: str) -> None:
    """Type the authenticator app's code on the page that asks for it. A code is taken once:
    a second login of the same person within its 30 s takes the next period's (allowed)."""

    from tests.support import totp

    secret = totp.secret_of(get_user_model().objects.get(username=username))
    for shift in (0, 30, -30):
        page.fill("#id_code", totp.code(secret, time.time() + shift))
        page.click("main form button[type=submit]")
        page.wait_for_load_state()
        if "/2fa/authenticate/" not in page.url:
            return
    raise AssertionError("the authenticator's codes were refused")


def violations(page, url: str) -> list[str]:
    """One line per rule broken: its id, impact, how many elements and the first three."""
    results = page.evaluate("options => axe.run(document, options)", AXE_OPTIONS)
    found = []
    for violation in results["violations"]:
        nodes = violation["nodes"]
        targets = [" ".join(node["target"]) for node in nodes[:3]]
        found.append(
            f"{url}: {violation['id']} ({violation['impact']}) {len(nodes)} node(s) at {targets}"
        )
    return found


def too_wide(page, url: str, scheme: str) -> list[str]:
    """The page as wide as the phone at most (a wide table scrolls in its own box)."""
    width = page.evaluate("document.documentElement.scrollWidth")
    if width <= page.viewport_size["width"]:
        return []
    screenshot(page, f"too-wide-{scheme}" + url.replace("/", "_"))
    return [f"[{scheme}] {url}: {width} px wide on a {page.viewport_size['width']} px phone"]


def in_language(language: str):
    """``t(msgid, **params)``: the text a page shows in ``language``, read from the catalogue,
    so one journey can run in English and in Swedish with the same steps; ``t(singular,
    plural=..., count=n)`` for a plural (its number is the one parameter given)."""
    from django.utils import translation

    def t(msgid: str, plural: str = "", **params: object) -> str:
        with translation.override(language):
            if plural:
                (number,) = params.values()
                text = translation.ngettext(msgid, plural, int(number))  # type: ignore[call-overload]
            else:
                text = translation.gettext(msgid)
        return text % params if params else text

    return t
