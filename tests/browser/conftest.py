"""Playwright in Debian's Chromium against pytest-django's live server.

The browser tests are skipped (not failed) when /usr/bin/chromium is absent; `.ci/run`
installs it, so CI always runs them.
"""

from __future__ import annotations

import shutil

import pytest

from tests.support.browser import CHROMIUM, PHONE, SIZES, log_in


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
