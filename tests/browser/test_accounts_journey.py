"""A new organiser lets themselves in, as a new user would (the accounts issue's "done when"):
signs up, verifies the address by the link in the mail, starts a club, invites a co-organiser
who signs up from the invitation and joins; the owner finds the sign-up list closed until
two-factor login is on, turns it on with the code an authenticator app computes (here, RFC 6238
in the test), trusts the desk laptop, then loses the phone and gets in with a recovery code.
The new pages at 360 px in light and dark, axe-clean."""

from __future__ import annotations

import re

import pytest
from allauth.account.models import EmailAddress
from allauth.mfa.models import Authenticator
from axe_playwright_python.base import AXE_FILE_PATH
from django.core.cache import cache
from playwright.sync_api import expect

from events.models import EventRole, HostClub
from events.outbox.models import OutboxMessage
from tests.support import totp
from tests.support.browser import screenshot, too_wide, violations
from tests.support.factories import CompetitionFactory, EventFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SMALL_PHONE = {"width": 360, "height": 740}
PASSWORD = "nights-at-the-club-2026"


def mail_link(address: str, pattern: str) -> str:
    message = OutboxMessage.objects.filter(to=address).order_by("-pk").first()
    assert message is not None, f"no mail to {address}"
    found = re.search(pattern, message.body)
    assert found, message.body
    return found.group(0)


def sign_up(page, base: str, address: str) -> None:
    page.goto(f"{base}/accounts/signup/")
    page.fill("#id_email", address)
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.locator("main form button[type=submit]").first.click()
    expect(page.locator("h1")).to_contain_text("Verify")


def look(page, name: str, problems: list[str]) -> None:
    """A screenshot to look at, the width at 360 px, and axe's WCAG 2.2 AA rules."""
    page.wait_for_load_state("load")
    scheme = page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") and "dark"
    scheme = scheme or "light"
    screenshot(page, f"accounts-360-{scheme}-{name}")
    problems += too_wide(page, page.url, scheme)
    problems += violations(page, page.url)


def test_a_new_organiser_signs_up_starts_a_club_invites_and_turns_on_two_factor(
    browser, live_server
):
    cache.clear()  # allauth's rate limits count in the cache
    base = live_server.url
    problems: list[str] = []
    contexts = []

    def new_page(scheme: str = "light"):
        context = browser.new_context(viewport=SMALL_PHONE, locale="en-GB", color_scheme=scheme)
        context.set_default_timeout(20_000)
        context.add_init_script(path=AXE_FILE_PATH)
        contexts.append(context)
        return context.new_page()

    try:
        # 1. Sign up and verify by the link in the mail.
        nora = new_page("light")
        nora.goto(f"{base}/accounts/signup/")
        look(nora, "signup", problems)
        sign_up(nora, base, "nora@example.org")
        look(nora, "verify-sent", problems)
        nora.goto(base + mail_link("nora@example.org", r"/accounts/confirm-email/\S+/"))
        nora.locator("main form button[type=submit]").click()
        expect(nora).to_have_url(f"{base}/desk/")

        # 2. Start a club from the desk's welcome.
        nora.get_by_role("link", name="Start a club").first.click()
        nora.fill("#id_name", "Haarlem Sjoelt")
        nora.select_option("#id_country", "NL")
        nora.select_option("#id_time_zone", "Europe/Amsterdam")
        nora.click("main form button.primary")
        expect(nora.locator("h1")).to_have_text("Haarlem Sjoelt")
        club = HostClub.objects.get(name="Haarlem Sjoelt")

        # 3. Invite a co-organiser, who signs up from the invitation and joins.
        nora.goto(f"{base}/desk/clubs/{club.slug}/people/")
        nora.fill("#id_email", "ola@example.org")
        nora.select_option("#id_role", "organiser")
        nora.get_by_role("button", name="Send the invitation").click()
        expect(nora.locator(".messages")).to_contain_text("ola@example.org")
        expect(nora.locator("main")).to_contain_text("Waiting for an answer")
        look(nora, "people", problems)

        ola = new_page("dark")
        ola.goto(base + mail_link("ola@example.org", r"/invitations/\S+/"))
        expect(ola.locator("h1")).to_contain_text("Haarlem Sjoelt")
        look(ola, "invitation", problems)
        ola.get_by_role("link", name="Sign up with this address").click()
        expect(ola.locator("#id_email")).to_have_value("ola@example.org")
        ola.fill("#id_password1", PASSWORD)
        ola.fill("#id_password2", PASSWORD)
        ola.locator("main form button[type=submit]").first.click()
        ola.get_by_role("button", name="Join Haarlem Sjoelt").click()
        expect(ola.locator("h1")).to_have_text("Haarlem Sjoelt")
        expect(ola.locator(".messages")).to_contain_text("organiser")

        # 4. A night with fees: its sign-up list opens only with two-factor login on.
        event = EventFactory(host=club, name="Friday sjoelen")
        EventRole.objects.create(event=event, user=club.roles.get(role="owner").user, role="owner")
        competition = CompetitionFactory(event=event, format="shuffleboard")
        signup_list = f"{base}/desk/{event.slug}/{competition.slug}/sign-up/"
        nora.goto(signup_list)
        expect(nora.locator("h1")).to_have_text("Two-factor login needed")
        look(nora, "two-factor-needed", problems)
        nora.get_by_role("link", name="Turn on two-factor login").click()
        if "/reauthenticate/" in nora.url:  # a slow machine: the login is more than 5 min old
            nora.fill("#id_password", PASSWORD)
            nora.locator("main form button[type=submit]").click()
        secret = nora.locator("#authenticator_secret").input_value()
        look(nora, "totp-activate", problems)
        nora.fill("#id_code", totp.code(secret))
        nora.locator("main form button[type=submit]").click()
        expect(nora.locator("h1")).to_contain_text("Recovery Codes")
        codes = re.findall(r"\b[0-9a-z]{8}\b", nora.locator("#recovery_codes").input_value())
        assert len(codes) == 10
        nora.get_by_role("link", name="Back to the page that asked for two-factor login").click()
        expect(nora).to_have_url(signup_list)
        expect(nora.locator("h1")).not_to_have_text("Two-factor login needed")

        # 5. The desk laptop, trusted for the event day: the code once, then 12 hours without.
        nora.goto(f"{base}/accounts/")
        look(nora, "account", problems)
        nora.locator("header form button").click()  # log out
        nora.goto(f"{base}/accounts/login/")
        nora.fill("#id_login", "nora@example.org")
        nora.fill("#id_password", PASSWORD)
        nora.locator("main form button[type=submit]").first.click()
        expect(nora).to_have_url(re.compile(r"/accounts/2fa/authenticate/"))
        # 6. The phone is lost: a recovery code instead of the app's code.
        nora.fill("#id_code", codes[0])
        nora.locator("main form button[type=submit]").first.click()
        expect(nora.locator("h1")).to_contain_text("Trust")
        nora.get_by_role("button", name=re.compile("Trust for")).click()
        expect(nora).to_have_url(f"{base}/desk/")
        nora.locator("header form button").click()
        nora.goto(f"{base}/accounts/login/")
        nora.fill("#id_login", "nora@example.org")
        nora.fill("#id_password", PASSWORD)
        nora.locator("main form button[type=submit]").first.click()
        expect(nora).to_have_url(f"{base}/desk/")  # trusted: no code asked
    finally:
        for context in contexts:
            context.close()
    assert problems == [], "\n".join(problems)


def test_a_passkey_is_a_second_factor_and_logs_in_without_a_password(
    browser, live_server, settings
):
    """A passkey, made by Chromium's virtual authenticator (a phone's or a laptop's built-in
    one, over WebAuthn): added on the two-factor page, it opens the sign-up list, and the
    login page's "Sign in with a passkey" logs in without the password. Plain http on
    localhost here, so the origin check is relaxed for this test (production is https)."""
    cache.clear()
    settings.MFA_WEBAUTHN_ALLOW_INSECURE_ORIGIN = True
    base = live_server.url
    owner = UserFactory(username="pia", email="pia@example.org")
    owner.set_password(PASSWORD)
    owner.save()
    EmailAddress.objects.create(user=owner, email="pia@example.org", verified=True, primary=True)
    event = EventFactory(name="Passkey night")
    EventRole.objects.create(event=event, user=owner, role="owner")
    competition = CompetitionFactory(event=event, format="shuffleboard")
    signup_list = f"{base}/desk/{event.slug}/{competition.slug}/sign-up/"

    context = browser.new_context(viewport=SMALL_PHONE, locale="en-GB")
    context.set_default_timeout(20_000)
    try:
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("WebAuthn.enable")
        cdp.send(
            "WebAuthn.addVirtualAuthenticator",
            {
                "options": {
                    "protocol": "ctap2",
                    "transport": "internal",
                    "hasResidentKey": True,
                    "hasUserVerification": True,
                    "isUserVerified": True,
                    "automaticPresenceSimulation": True,
                }
            },
        )
        page.goto(f"{base}/accounts/login/")
        page.fill("#id_login", "pia@example.org")
        page.fill("#id_password", PASSWORD)
        page.locator("main form button[type=submit]").first.click()
        expect(page).to_have_url(f"{base}/desk/")
        page.goto(signup_list)
        expect(page.locator("h1")).to_have_text("Two-factor login needed")

        page.goto(f"{base}/accounts/2fa/webauthn/add/")
        if "/reauthenticate/" in page.url:  # allauth asks the password again first
            page.fill("#id_password", PASSWORD)
            page.locator("main form button[type=submit]").click()
        page.fill("#id_name", "Pia's laptop")
        page.check("#id_passwordless")
        page.locator("#mfa_webauthn_add").click()
        expect(page.locator("main")).to_contain_text("Recovery Codes")
        assert Authenticator.objects.filter(user=owner, type="webauthn").exists()
        page.goto(signup_list)
        expect(page.locator("h1")).not_to_have_text("Two-factor login needed")

        page.locator("header form button").click()  # log out
        page.goto(f"{base}/accounts/login/")
        page.get_by_role("button", name="Sign in with a passkey").click()
        expect(page).to_have_url(re.compile(r"/(desk|accounts/2fa/trust)/$"))
        if "/trust/" in page.url:
            page.get_by_role("button", name=re.compile("Trust for")).click()
        expect(page).to_have_url(f"{base}/desk/")
        page.goto(signup_list)
        expect(page.locator("h1")).not_to_have_text("Two-factor login needed")
    finally:
        context.close()
