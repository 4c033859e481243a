"""Sign-up before the day in a real browser: the organiser opens the sign-up at the
desk, two people sign up on their phones and confirm from their e-mails' links, the second
waits, the first cancels, the second is offered the seat, accepts it, and is checked in at the
desk."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from events.outbox.models import OutboxMessage
from tests.support.browser import screenshot
from tests.support.factories import CompetitionFactory, EventFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LINK = re.compile(r"https?://[^/\s]+(/sign-up/\S+?/)\s")


def link_of(email: str) -> str:
    """The path of the link in the newest e-mail to ``email`` (the outbox keeps what was
    sent; its host is the site's configured address, here the test server's)."""
    message = OutboxMessage.objects.filter(to=email).order_by("-pk").first()
    assert message is not None
    match = LINK.search(message.body + "\n")
    assert match is not None, message.body
    return match.group(1)


def sign_up(page, base: str, name: str, email: str) -> None:
    page.goto(f"{base}/e/lincon/sign-up/")
    page.fill("#id_name", name)
    page.fill("#id_email", email)
    page.check("input[name=consent]")
    page.get_by_role("button", name="Sign up").click()
    expect(page.locator("h1")).to_have_text("Check your e-mail")


def test_sign_up_wait_offered_accept_and_checked_in(desk_page, phone, second_phone, live_server):
    # Two-factor login on: the sign-up list opens only so (log_in types the app's code).
    organiser = UserFactory(username="desk", two_factor=True)
    event = EventFactory(name="LinCon", slug="lincon", organisers=[organiser])
    competition = CompetitionFactory(event=event, name="Blokus", slug="blokus")
    base = live_server.url

    # The organiser opens the sign-up for one seat.
    desk = desk_page("desk", size="desk")
    desk.goto(f"{base}{competition.get_desk_url()}")
    desk.get_by_role("link", name="Online sign-up").click()
    desk.fill("#id_opens_at", "2020-01-01T09:00")
    desk.fill("#id_closes_at", "2099-01-01T09:00")
    desk.fill("#id_cap", "1")
    desk.get_by_role("button", name="Open the sign-up").click()
    expect(desk.locator(".messages")).to_contain_text("Sign-up settings saved.")

    # A mistake first: what was typed stays, the error stands beside its field.
    phone.goto(f"{base}/e/lincon/")
    phone.get_by_role("link", name="Sign up").click()
    expect(phone.locator("main")).to_contain_text("1 seat free")
    phone.fill("#id_name", "Ann Andersson")
    phone.fill("#id_email", "ann-at-example")
    phone.check("input[name=consent]")
    phone.get_by_role("button", name="Sign up").click()
    expect(phone.locator(".field.has-error")).to_contain_text("valid email")
    expect(phone.locator("#id_name")).to_have_value("Ann Andersson")
    screenshot(phone, "signup-error-phone")
    phone.fill("#id_email", "ann@example.se")
    phone.get_by_role("button", name="Sign up").click()
    expect(phone.locator("h1")).to_have_text("Check your e-mail")

    # Ann confirms from her e-mail: the seat is hers.
    phone.goto(base + link_of("ann@example.se"))
    phone.get_by_role("button", name="Confirm").click()
    expect(phone.locator(".messages")).to_contain_text("You have a seat in Blokus.")
    expect(phone.locator(".card")).to_contain_text("confirmed")

    # Bo signs up and confirms: the waitlist, first in line.
    sign_up(second_phone, base, "Bo Berg", "bo@example.se")
    second_phone.goto(base + link_of("bo@example.se"))
    second_phone.get_by_role("button", name="Confirm").click()
    expect(second_phone.locator(".card")).to_contain_text("Place 1 on the waitlist.")
    screenshot(second_phone, "signup-waitlisted-phone")

    # Ann cancels: the seat is offered to Bo by itself, by e-mail.
    phone.get_by_role("button", name="Cancel my sign-up").click()
    expect(phone.locator(".messages")).to_contain_text("Your sign-up for Blokus is cancelled.")
    second_phone.goto(base + link_of("bo@example.se"))
    expect(second_phone.locator(".card")).to_contain_text(
        "A seat is yours if you accept it. Offer open until:"
    )
    screenshot(second_phone, "signup-offered-phone")
    second_phone.get_by_role("button", name="Accept the seat").click()
    expect(second_phone.locator(".messages")).to_contain_text("You have a seat in Blokus.")

    # The desk sees it and checks Bo in.
    desk.goto(f"{base}{competition.get_desk_url()}sign-up/")
    expect(desk.locator("main")).to_contain_text("cancelled (1)")
    expect(desk.locator("main")).to_contain_text("confirmed (1)")
    screenshot(desk, "signup-desk")
    desk.goto(f"{base}{competition.get_desk_url()}")
    row = desk.locator("#entries tr", has_text="Bo Berg")
    row.get_by_role("button", name="Check in").click()
    expect(desk.locator("#entries tr", has_text="Bo Berg")).to_contain_text("checked in")
    expect(desk.locator("#entries")).not_to_contain_text("Ann Andersson")


def test_sign_up_for_a_blokus_session_with_first_name_and_initial(desk_page, phone, live_server):
    """The organiser sets a qualifying session's seats; a player chooses that session and to be
    shown as first name and initial; the public page names her so, the desk in full."""
    from blokus.services import sessions_set_up
    from tests.support.blokus import ROLL_CALLS

    # Two-factor login on: the sign-up list opens only so (log_in types the app's code).
    organiser = UserFactory(username="desk", two_factor=True)
    event = EventFactory(name="LinCon", slug="lincon", organisers=[organiser])
    competition = CompetitionFactory(event=event, name="Blokus", slug="blokus")
    sessions_set_up(competition=competition, roll_calls=ROLL_CALLS)
    base = live_server.url

    desk = desk_page("desk", size="desk")
    desk.goto(f"{base}{competition.get_desk_url()}sign-up/")
    desk.fill("#id_opens_at", "2020-01-01T09:00")
    desk.fill("#id_closes_at", "2099-01-01T09:00")
    desk.fill("#id_cap", "24")
    desk.get_by_label("Seats in Qualifying session 1").fill("12")
    desk.get_by_role("button", name="Open the sign-up").click()
    expect(desk.locator(".messages")).to_contain_text("Sign-up settings saved.")

    phone.goto(f"{base}/e/lincon/sign-up/")
    expect(phone.locator("main")).to_contain_text("12 seats free")
    phone.fill("#id_name", "Cecilia Carlsson")
    phone.fill("#id_email", "cc@example.se")
    phone.check("input[name=consent]")
    phone.get_by_label("first name and initial").check()
    phone.get_by_role("button", name="Sign up").click()
    # No session chosen: told beside the field, nothing typed lost.
    expect(phone.locator(".field.has-error")).to_contain_text("Choose a session.")
    expect(phone.locator("#id_name")).to_have_value("Cecilia Carlsson")
    phone.get_by_role("radio", name=re.compile("Qualifying session 1")).check()
    screenshot(phone, "signup-session-phone")
    phone.get_by_role("button", name="Sign up").click()
    expect(phone.locator("h1")).to_have_text("Check your e-mail")
    phone.goto(base + link_of("cc@example.se"))
    phone.get_by_role("button", name="Confirm").click()
    expect(phone.locator(".messages")).to_contain_text("You have a seat in Blokus.")
    expect(phone.locator(".card")).to_contain_text("Qualifying session 1")
    screenshot(phone, "signup-person-session-phone")

    phone.goto(f"{base}{competition.get_absolute_url()}")
    expect(phone.locator("main")).to_contain_text("Cecilia C.")
    expect(phone.locator("main")).not_to_contain_text("Carlsson")
    desk.goto(f"{base}{competition.get_desk_url()}sign-up/")
    expect(desk.locator("main")).to_contain_text("Cecilia Carlsson")
    expect(desk.locator("main")).to_contain_text("Qualifying session 1")


def test_the_persons_link_reaches_no_referer_and_the_forms_still_post(phone, live_server):
    """The page behind the link sends its address in no Referer (its styles, scripts, forms,
    links: the origin at most), and its buttons still work: a no-referrer page would post its
    forms with "Origin: null", which Django's CSRF check refuses."""
    from events.signups.services import lifecycle as signups, mail as signup_mail

    event = EventFactory(slug="lincon")
    competition = CompetitionFactory(event=event, name="Blokus", slug="blokus")
    now = timezone.now()
    signups.window_set(
        competition=competition,
        opens_at=now - dt.timedelta(hours=1),
        closes_at=now + dt.timedelta(days=7),
        cap=2,
    )
    signups.signup_submit(window=competition.sign_up_window, name="Ann", email="ann@example.se")
    token = signup_mail.person_token("ann@example.se")
    link = f"/sign-up/{token}/"
    referers: list[str] = []
    phone.on("request", lambda request: referers.append(request.headers.get("referer", "")))

    phone.goto(live_server.url + link)
    phone.get_by_role("button", name="Confirm").click()
    expect(phone.locator(".messages")).to_contain_text("You have a seat in Blokus.")
    assert len(referers) > 3  # the page, its assets, the form, the page again
    assert not [r for r in referers if token in r or "/sign-up/" in r], referers
