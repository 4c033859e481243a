"""The person's page and the desk's sign-up page as testers on phones found them, through real
requests: what the person sees (who, what, when; the fee owed only for a seat; captioned QR
codes; a grouped IBAN; an offer past its end shown ended), the lapsed offer's e-mail, erased
people named without a language and sorted last, and the desk's page (the list first, offer
times in hours, a sign-up joined to the register)."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.urls import reverse
from django.utils import formats, timezone, translation

from events import selectors
from events.models import Entry, Session
from events.outbox.models import OutboxMessage
from events.signups.models import SignUp, SignUpStatus
from events.signups.services import (
    desk as signup_desk,
    lifecycle as signups,
    mail as signup_mail,
    privacy,
)
from tests.support.factories import EntryFactory, PlayerFactory

IBAN = "SE4550000000058398257466"


def open_window(competition, cap=1, **kw):
    now = timezone.now()
    return signups.window_set(
        competition=competition,
        opens_at=now - dt.timedelta(hours=1),
        closes_at=now + dt.timedelta(days=7),
        cap=cap,
        **kw,
    )


def signed_up(competition, name, email, *, confirm=True, language=""):
    sign_up = signups.signup_submit(
        window=competition.sign_up_window, name=name, email=email, language=language
    )
    return signups.signup_confirm(sign_up=sign_up) if confirm else sign_up


def person_page(client, email, **headers):
    return client.get(
        reverse("events:signup_person", args=[signup_mail.person_token(email)]), **headers
    )


def text_of(response) -> str:
    """The page's words, tags dropped and spaces joined (what a reader sees)."""
    return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())


@pytest.mark.django_db
def test_the_page_names_the_person_the_event_and_when_it_starts_in_the_event_zone(
    client, competition
):
    competition.event.time_zone = "Europe/Tallinn"
    competition.event.save()
    starts = dt.datetime(2026, 12, 12, 8, 30, tzinfo=dt.UTC)  # 10:30 in Tallinn
    Session.objects.create(
        competition=competition, number=1, kind=Session.Kind.FINAL, starts_at=starts
    )
    open_window(competition)
    signed_up(competition, "Õie Sööt", "oie@example.org")
    page = person_page(client, "oie@example.org", HTTP_ACCEPT_LANGUAGE="sv")
    assert page.status_code == 200
    words = text_of(page)
    with translation.override("sv"):
        when = formats.date_format(
            timezone.localtime(starts, ZoneInfo("Europe/Tallinn")), "DATETIME_FORMAT"
        )
    assert "Õie Sööt" in words
    assert "LinCon 2026" in words and "Blokus" in words
    assert when in words, words


@pytest.mark.django_db
def test_the_fee_is_owed_only_for_a_seat(client, competition):
    open_window(competition, cap=1, fee=Decimal("12.50"))
    signed_up(competition, "Anna Seated", "anna@example.org")
    signed_up(competition, "Bo Waiting", "bo@example.org")
    seated = text_of(person_page(client, "anna@example.org"))
    assert "Entry fee 12.50 EUR (unpaid)" in seated
    waiting = text_of(person_page(client, "bo@example.org"))
    assert "(unpaid)" not in waiting
    assert "Entry fee 12.50 EUR, due once you have a seat." in waiting
    # Offered a seat: still not owed until it is taken.
    signups.signup_cancel(sign_up=SignUp.objects.get(email="anna@example.org"))
    assert SignUp.objects.get(email="bo@example.org").status == SignUpStatus.OFFERED
    offered = text_of(person_page(client, "bo@example.org"))
    assert "(unpaid)" not in offered and "due once you have a seat" in offered


@pytest.mark.django_db
def test_both_qr_codes_are_captioned_and_the_iban_is_grouped(client, competition):
    open_window(competition, cap=1, fee=Decimal("10"), payee_name="Spelklubben", payee_iban=IBAN)
    signed_up(competition, "Anna Seated", "anna@example.org")
    page = person_page(client, "anna@example.org")
    html = page.content.decode()
    assert html.count('class="qr-code') == 2
    assert html.count("<figcaption") == 2
    words = text_of(page)
    assert "Bank transfer QR code" in words and "Calendar QR code" in words
    assert "SE45 5000 0000 0583 9825 7466" in words
    assert IBAN not in html  # printed grouped only


@pytest.mark.django_db
def test_an_offer_past_its_end_reads_ended_before_any_sweep_and_cannot_be_accepted(
    client, competition
):
    open_window(competition, cap=1, offer_minutes=60)
    first = signed_up(competition, "Anna Seated", "anna@example.org")
    signed_up(competition, "Bo Waiting", "bo@example.org")
    signups.signup_cancel(sign_up=first)
    offered = SignUp.objects.get(email="bo@example.org")
    assert offered.status == SignUpStatus.OFFERED
    assert "Accept the seat" in text_of(person_page(client, "bo@example.org"))
    with time_machine.travel(offered.offer_until + dt.timedelta(seconds=5), tick=False):
        page = person_page(client, "bo@example.org")
        words = text_of(page)
        assert "Accept the seat" not in words
        assert "The offer of this seat ended at" in words
        assert "status-offered" not in page.content.decode()
        token = signup_mail.person_token("bo@example.org")
        accept = reverse("events:signup_action", args=[token, offered.pk, "accept"])
        answer = client.post(accept, follow=True)
        assert "The offer of this seat ended at" in text_of(answer)
        assert "went to the next person on the waitlist" in text_of(answer)
    offered.refresh_from_db()
    assert offered.status != SignUpStatus.CONFIRMED


@pytest.mark.django_db
def test_the_sweep_mails_the_person_whose_offer_lapsed_once_in_their_language(competition):
    open_window(competition, cap=1, offer_minutes=60)
    first = signed_up(competition, "Anna Seated", "anna@example.org")
    signed_up(competition, "Bo Waiting", "bo@example.org", language="sv")
    signups.signup_cancel(sign_up=first)
    offered = SignUp.objects.get(email="bo@example.org")
    later = offered.offer_until + dt.timedelta(seconds=1)
    before = set(OutboxMessage.objects.filter(to="bo@example.org").values_list("pk", flat=True))
    signups.signups_sweep(now=later)
    signups.signups_sweep(now=later + dt.timedelta(seconds=30))
    offered.refresh_from_db()
    assert offered.status == SignUpStatus.EXPIRED
    lapsed = OutboxMessage.objects.filter(to="bo@example.org").exclude(pk__in=before)
    assert lapsed.count() == 1
    message = lapsed.get()
    assert message.language == "sv"
    assert message.key.startswith(f"signup-offer-ended:{offered.pk}:")
    assert "Bo Waiting" in message.body and "/sign-up/" in message.body


@pytest.mark.django_db
def test_an_erased_person_has_a_pseudonym_without_a_word_sorted_after_real_names(
    client, competition
):
    for name, email in (
        ("Anna Berg", "anna@example.org"),
        ("Öie Tamm", "oie@example.org"),
        ("Aaron Erased", "aaron@example.org"),
    ):
        EntryFactory(competition=competition, player=PlayerFactory(name=name, email=email))
    privacy.person_erase("aaron@example.org")
    erased = Entry.objects.get(competition=competition, player__email="").player
    assert erased.name == f"№ {erased.pk}"
    assert not re.search(r"[A-Za-z]", erased.name)  # no word of any one language
    assert privacy.is_erased(erased)
    names = [e.player.name for e in selectors.entries_for_competition(competition)]
    assert names == ["Anna Berg", "Öie Tamm", erased.name]
    # In the register's search too (a language collation may sort the mark first).
    PlayerFactory(name="Nora Nordin", email="nora@example.org")
    found = [p.name for p in selectors.players_search("no", competition=competition)]
    # "№" folds to "No" in SQLite's search text and not in PostgreSQL's: found or not, it is
    # never before a real name.
    assert found in (["Nora Nordin", erased.name], ["Nora Nordin"])
    # Erased before the change: still erased (a calendar link stays dead).
    old = PlayerFactory(name="x", email="")
    old.name = f"Anonymous {old.pk}"
    old.save()
    assert privacy.is_erased(old)


def desk_url(competition):
    return reverse("events:signup_desk", args=[competition.event.slug, competition.slug])


@pytest.mark.django_db
def test_the_desk_sees_the_list_before_the_settings(desk_client, competition):
    open_window(competition, cap=2)
    signed_up(competition, "Anna Berg", "anna@example.org")
    html = desk_client.get(desk_url(competition)).content.decode()
    assert html.index('id="signups-heading"') < html.index('name="cap"')
    assert html.index("Anna Berg") < html.index('name="cap"')
    # No sign-up open yet: the settings are all there is, open.
    other = competition.__class__.objects.create(
        event=competition.event, name="Other", slug="other", format="blokus", settings={}
    )
    first = desk_client.get(desk_url(other)).content.decode()
    assert 'name="cap"' in first and "<details" not in first


@pytest.mark.django_db
def test_offer_times_are_asked_in_hours_and_stored_in_minutes(desk_client, competition):
    open_window(competition, cap=2, offer_minutes=24 * 60)
    page = desk_client.get(desk_url(competition)).content.decode()
    assert "Hours to accept an offered seat" in page
    assert 'name="offer_hours" value="24"' in page
    now = timezone.localtime(timezone.now(), ZoneInfo(competition.event.time_zone))
    settings = {
        "opens_at": (now - dt.timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M"),
        "closes_at": (now + dt.timedelta(days=3)).strftime("%Y-%m-%dT%H:%M"),
        "cap": "2",
        "hold_minutes": "30",
        "offer_hours": "1.5",
    }
    assert desk_client.post(desk_url(competition), settings).status_code == 302
    competition.sign_up_window.refresh_from_db()
    assert competition.sign_up_window.offer_minutes == 90
    # A decimal comma where the language writes one.
    answer = desk_client.post(
        desk_url(competition), settings | {"offer_hours": "2,25"}, HTTP_ACCEPT_LANGUAGE="sv"
    )
    assert answer.status_code == 302
    competition.sign_up_window.refresh_from_db()
    assert competition.sign_up_window.offer_minutes == 135
    shown = desk_client.get(desk_url(competition), HTTP_ACCEPT_LANGUAGE="sv").content.decode()
    assert 'name="offer_hours" value="2,25"' in shown


@pytest.mark.django_db
def test_a_sign_up_joined_to_the_register_says_to_whom_with_a_link(desk_client, competition):
    open_window(competition, cap=2)
    known = PlayerFactory(name="Anna Berg", club="Tartu", email="old@example.org")
    sign_up = signups.signup_submit(
        window=competition.sign_up_window, name="Anna Berg", email="new@example.org", club="Tartu"
    )
    assert sign_up.possible_duplicate == known
    signup_desk.signup_merge(sign_up=sign_up)
    page = desk_client.get(desk_url(competition)).content.decode()
    assert "Joined to Anna Berg of the register" in text_of_html(page)
    # Seated as that person: the link opens their page at the desk.
    signups.signup_confirm(sign_up=SignUp.objects.get(pk=sign_up.pk))
    page = desk_client.get(desk_url(competition)).content.decode()
    link = reverse("events:player_edit", args=[competition.event.slug, known.pk])
    assert f'<a href="{link}">Anna Berg</a>' in page
    assert desk_client.get(link).status_code == 200


def text_of_html(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())
