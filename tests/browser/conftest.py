"""Playwright in Debian's Chromium against pytest-django's live server.

The browser tests are skipped (not failed) when /usr/bin/chromium is absent; `.ci/run`
installs it, so CI always runs them.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
PHONE = {"width": 390, "height": 844}
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


def screenshot(page, name: str) -> None:
    """Keep a look at the page for humans (var/screenshots/), as the brief asks."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SHOTS / f"{name}.png", full_page=True)


def log_in(page, base_url: str, username: str, password: str = "pw-for-tests-only") -> None:
    page.goto(f"{base_url}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{base_url}/desk/")
