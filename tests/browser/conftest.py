"""Playwright in Debian's Chromium against pytest-django's live server.

The browser tests are skipped (not failed) when /usr/bin/chromium is absent; `.ci/run`
installs it, so CI always runs them.
"""

from __future__ import annotations

import os
import re
import shutil
import time
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
PHONE = {"width": 390, "height": 844}
DESK = {"width": 1280, "height": 900}
SIZES = {"phone": PHONE, "desk": DESK}
SHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"


def pytest_collection_modifyitems(items):
    if shutil.which(CHROMIUM):
        return
    skip = pytest.mark.skip(reason=f"Chromium not found at {CHROMIUM}")
    for item in items:
        if "browser" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def playwright():
    """The one Playwright of the session: the sync API runs one per thread, so a test that needs
    a Chromium of its own (other launch arguments) launches it from here."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as running:
        yield running


@pytest.fixture(scope="session")
def browser(playwright):
    browser = playwright.chromium.launch(
        executable_path=CHROMIUM,
        args=[
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ],
    )
    yield browser
    browser.close()


# How long a test waits for a live page to follow a write: pages poll every 10 s, and a poll in
# flight when the write lands still shows the old state, so up to two polls plus a slow answer
# on a busy machine. A wait for a condition, not a sleep: it ends as soon as the page follows.
POLL_WAIT = 35_000


@pytest.fixture
def phone(browser, live_server):
    """A fresh phone-sized page; call ``phone.goto(live_server.url + path)``."""
    context = browser.new_context(viewport=PHONE, locale="en-GB")
    context.set_default_timeout(20_000)  # a busy 2-core CI machine; ends at the condition
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def second_phone(browser, live_server):
    context = browser.new_context(viewport=PHONE, locale="en-GB")
    context.set_default_timeout(20_000)
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def desk_page(request, live_server):
    """Open a page logged in at the desk: ``desk_page("desk")`` gives a fresh page (a context of
    its own, en-GB, phone-sized: 390 px) already logged in as that user; ``size="desk"`` makes
    it 1280 px wide, ``viewport=`` any size, ``in_browser=`` a Chromium launched by the test.
    Create the user first. Every context it opened is closed after the test."""
    contexts: list = []

    def open_page(username: str, size: str = "phone", *, viewport=None, in_browser=None, **options):
        chromium = in_browser or request.getfixturevalue("browser")
        options.setdefault("locale", "en-GB")
        context = chromium.new_context(viewport=viewport or SIZES[size], **options)
        context.set_default_timeout(20_000)  # a busy 2-core CI machine; ends at the condition
        contexts.append(context)
        page = context.new_page()
        log_in(page, live_server.url, username)
        return page

    yield open_page
    for context in contexts:
        context.close()


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
