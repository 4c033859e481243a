"""The browser tests' Chromium, page sizes, screenshots and a person's login."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


PHONE = {"width": 390, "height": 844}


DESK = {"width": 1280, "height": 900}


SIZES = {"phone": PHONE, "desk": DESK}


SHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"


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
    from django.contrib.auth import get_user_model

    from tests.support import totp

    secret = totp.secret_of(get_user_model().objects.get(username=username))
    for shift in (0, 30, -30):
        page.fill("#id_code", totp.code(secret, time.time() + shift))
        page.click("main form button[type=submit]")
        page.wait_for_load_state()
        if "/2fa/authenticate/" not in page.url:
            return
    raise AssertionError("the authenticator's codes were refused")
