"""The desk's sign-up pages through real requests (events/signups/views/desk.py): the window's
settings (offer times in hours), the list first and its filters, promotion, fees and payments,
the register download, merging a possible duplicate, a sign-up joined to the register."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse
from django.utils import timezone

from events.errors import Conflict
from events.outbox.models import OutboxMessage
from events.signups.models import SignUp
from events.signups.selectors import window_desk
from events.signups.services import (
    desk as signup_desk,
    lifecycle as signups,
)
from tests.support.factories import PlayerFactory
from tests.support.signups import form, open_window, signed_up, token_of


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


@pytest.mark.django_db
def test_the_desk_opens_the_sign_up_and_the_public_page_shows_it(desk_client, competition):
    url = reverse("events:signup_desk", args=[competition.event.slug, competition.slug])
    assert desk_client.get(url).status_code == 200
    bad = desk_client.post(
        url,
        {
            "opens_at": "2026-12-10T10:00",
            "closes_at": "2026-12-01T10:00",
            "cap": "0",
            "hold_minutes": "30",
            "offer_hours": "1",
        },
    )
    assert bad.status_code == 400
    assert b"The sign-up closes after it opens." in bad.content
    assert b'value="2026-12-10T10:00"' in bad.content  # what was typed is kept
    assert (
        not SignUp.objects.exists()
        and not competition.__class__.objects.filter(sign_up_window__isnull=False).exists()
    )
    now = timezone.localtime(timezone.now(), dt.timezone(dt.timedelta(hours=1)))
    good = desk_client.post(
        url,
        {
            "opens_at": (now - dt.timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M"),
            "closes_at": (now + dt.timedelta(days=3)).strftime("%Y-%m-%dT%H:%M"),
            "cap": "12",
            "waitlist_limit": "",
            "hold_minutes": "30",
            "offer_hours": "24",
        },
    )
    assert good.status_code == 302
    window = competition.sign_up_window
    assert window.cap == 12 and window.waitlist_limit is None
    event_page = desk_client.get(competition.event.get_absolute_url())
    assert reverse("events:signup", args=[competition.event.slug]).encode() in event_page.content
    page = desk_client.get(reverse("events:signup", args=[competition.event.slug]))
    assert page.status_code == 200
    assert b"12 seats free" in page.content


@pytest.mark.django_db
def test_the_desk_lists_filters_and_promotes(desk_client, competition, outsider, client):
    open_window(competition, cap=1)
    PlayerFactory(name="Player 2", club="Tartu", email="old@example.org")
    for n in (1, 2, 3):
        s = signups.signup_submit(
            window=competition.sign_up_window,
            name=f"Player {n}",
            email=f"p{n}@example.org",
            club="Tartu",
        )
        signups.signup_confirm(sign_up=s)
    url = reverse("events:signup_desk", args=[competition.event.slug, competition.slug])
    page = desk_client.get(url)
    assert b"confirmed (1)" in page.content and b"on the waitlist (2)" in page.content
    assert b"possible duplicate (1)" in page.content
    only = desk_client.get(url + "?status=waitlisted")
    assert only.content.count(b"Give a seat now") == 2
    assert desk_client.get(url + "?status=<script>").status_code == 200
    waiting = SignUp.objects.filter(status="waitlisted").order_by("confirmed_at").first()
    promote = reverse("events:signup_promote", args=[waiting.pk])
    client.force_login(outsider)
    assert client.post(promote).status_code == 403
    desk_client.force_login(competition.event.organisers.first())
    assert desk_client.post(promote).status_code == 302
    waiting.refresh_from_db()
    assert waiting.status == "confirmed"
    assert desk_client.post(reverse("events:signup_promote", args=[999999])).status_code == 404
    # Every step of it in its history at the desk, the desk's own with who did it.
    listed = {s.pk: s for s in window_desk(competition).sign_ups}
    steps = listed[waiting.pk].steps
    assert [step.status for step in steps] == ["not confirmed yet", "on the waitlist", "confirmed"]
    assert steps[-1].by == "alice" and steps[0].by == ""
    assert "History" in desk_client.get(url).content.decode()


IBAN = "NL91ABNA0417164300"  # the standard example IBAN (valid check digits)


@pytest.mark.django_db
def test_entry_fees_paid_unpaid_waived_with_totals_and_a_giro_code(
    client, desk_client, competition
):
    url = reverse("events:signup_desk", args=[competition.event.slug, competition.slug])
    now = timezone.localtime(timezone.now(), dt.timezone(dt.timedelta(hours=1)))
    settings_form = {
        "opens_at": (now - dt.timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M"),
        "closes_at": (now + dt.timedelta(days=3)).strftime("%Y-%m-%dT%H:%M"),
        "cap": "3",
        "hold_minutes": "30",
        "offer_hours": "24",
        "fee": "12.50",
        "currency": "EUR",
        "payee_name": "Spelklubben Tärningen",
        "payee_iban": "NL91 ABNA 0417 1643 01",  # one digit wrong
    }
    wrong = desk_client.post(url, settings_form)
    assert wrong.status_code == 400 and b"check digits do not match" in wrong.content
    assert (
        desk_client.post(url, settings_form | {"payee_iban": "nl91 abna 0417 1643 00"}).status_code
        == 302
    )
    window = competition.sign_up_window
    assert (window.fee, window.payee_iban) == (Decimal("12.50"), IBAN)

    for n in range(3):
        client.post(reverse("events:signup", args=[competition.event.slug]), form(competition, n))
    mail = OutboxMessage.objects.filter(to="p0@example.org").get()
    first = SignUp.objects.get(email="p0@example.org")
    assert f"Entry fee: 12.50 EUR, reference {first.reference}." in mail.body
    for n in range(3):
        client.post(reverse("events:signup_confirm", args=[token_of(f"p{n}@example.org")]))
    page = client.get(reverse("events:signup_person", args=[token_of("p0@example.org")]))
    assert b'aria-label="QR code of the bank transfer' in page.content
    assert f"reference {first.reference}".encode() in page.content

    second, third = SignUp.objects.exclude(pk=first.pk).order_by("pk")
    paid = reverse("events:signup_payment", args=[first.pk, "paid"])
    assert desk_client.post(paid).status_code == 302
    desk_client.post(reverse("events:signup_payment", args=[second.pk, "waived"]))
    assert (
        desk_client.post(reverse("events:signup_payment", args=[third.pk, "free"])).status_code
        == 302
    )
    third.refresh_from_db()
    assert third.payment == "unpaid"  # an unknown state changes nothing
    listing = desk_client.get(url).content.decode()
    assert "1 paid (12.50 EUR), 1 unpaid (12.50 EUR to come), 1 waived." in listing
    unpaid = desk_client.get(url + "?status=unpaid").content.decode()
    assert "Player 2" in unpaid and "Player 0" not in unpaid
    # Paid: no QR code any more.
    page = client.get(reverse("events:signup_person", args=[token_of("p0@example.org")]))
    assert b"QR code of the bank transfer" not in page.content


@pytest.mark.django_db
def test_the_register_download_is_for_organisers_and_injection_safe(
    client, desk_client, competition, outsider
):
    open_window(competition, cap=1)
    for n, name in enumerate(['=HYPERLINK("http://evil.example","x")', "Ülle Õunapuu"]):
        s = signups.signup_submit(
            window=competition.sign_up_window, name=name, email=f"p{n}@example.org"
        )
        signups.signup_confirm(sign_up=s)
    url = reverse("events:signup_download", args=[competition.event.slug, competition.slug, "csv"])
    answer = desk_client.get(url)
    assert answer.status_code == 200 and "no-store" in answer["Cache-Control"]
    text = answer.content.decode("utf-8-sig")
    assert "'=HYPERLINK" in text and "p0@example.org" in text and "Ülle Õunapuu" in text
    assert "on the waitlist" in text
    only = desk_client.get(url + "?status=waitlisted").content.decode("utf-8-sig")
    assert "Ülle" in only and "HYPERLINK" not in only
    xlsx = desk_client.get(url.replace(".csv", ".xlsx"))
    assert xlsx.status_code == 200 and xlsx.content[:2] == b"PK"
    assert desk_client.get(url.replace(".csv", ".pdf")).status_code == 404
    client.force_login(outsider)
    assert client.get(url).status_code == 403


@pytest.mark.django_db
def test_a_possible_duplicate_merged_at_the_desk_and_in_admin(
    desk_client, competition, admin_client
):
    open_window(competition, cap=1)
    known = PlayerFactory(name="Anna Berg", club="Tartu", email="old@example.org")
    other = PlayerFactory(name="Bo Ek", club="Tartu", email="")
    seated = signups.signup_confirm(
        sign_up=signups.signup_submit(
            window=competition.sign_up_window,
            name="Anna Berg",
            club="Tartu",
            email="new@example.org",
        )
    )
    waiting = signups.signup_confirm(
        sign_up=signups.signup_submit(
            window=competition.sign_up_window, name="Bo Ek", club="Tartu", email="bo@example.org"
        )
    )
    assert seated.possible_duplicate == known and seated.entry.player != known
    new_person = seated.entry.player
    merge = reverse("events:signup_merge", args=[seated.pk])
    assert desk_client.post(merge).status_code == 302
    seated.refresh_from_db()
    assert seated.entry.player == known and seated.possible_duplicate is None
    assert not type(known).objects.filter(pk=new_person.pk).exists()
    assert seated.history.first().history_user is not None  # who merged, in its history
    again = desk_client.post(merge, follow=True)
    assert b"not marked as a possible duplicate" in again.content

    # In admin, the same service: the waiting one is joined now and seated as Bo Ek later.
    changelist = reverse("admin:events_signup_changelist")
    answer = admin_client.post(
        changelist, {"action": "merge_duplicates", "_selected_action": [waiting.pk]}
    )
    assert answer.status_code == 302
    waiting.refresh_from_db()
    assert waiting.register_person == other and waiting.possible_duplicate is None
    signups.signup_cancel(sign_up=seated)
    waiting.refresh_from_db()
    signups.offer_accept(sign_up=waiting)
    waiting.refresh_from_db()
    assert waiting.entry.player == other


@pytest.mark.django_db
def test_a_merge_onto_a_person_seated_here_already_is_refused_and_nothing_breaks(
    desk_client, competition
):
    open_window(competition, cap=3)
    first = signups.signup_confirm(
        sign_up=signups.signup_submit(
            window=competition.sign_up_window, name="Mart Tamm", club="Tartu", email="m@example.org"
        )
    )
    second = signups.signup_submit(
        window=competition.sign_up_window, name="Mart Tamm", club="Tartu", email="m2@example.org"
    )
    assert second.possible_duplicate == first.entry.player
    # The desk's button posts through htmx (hx-confirm): the browser is sent to the page.
    url = reverse("events:signup_merge", args=[second.pk])
    swapped = desk_client.post(url, headers={"HX-Request": "true"})
    desk_page = reverse("events:signup_desk", args=[competition.event.slug, competition.slug])
    assert swapped.status_code == 200 and swapped["HX-Redirect"] == desk_page
    merge = desk_client.get(desk_page)
    assert b"is registered in this competition already" in merge.content
    second.refresh_from_db()
    assert second.register_person is None and second.status == "pending"
    # Joined anyway (say, in an older release): confirming is refused in words, no 500.
    SignUp.objects.filter(pk=second.pk).update(register_person=first.entry.player)
    with pytest.raises(Conflict) as refused:
        signups.signup_confirm(sign_up=second)
    assert refused.value.code == "seat_taken"
    promote = desk_client.post(reverse("events:signup_promote", args=[second.pk]), follow=True)
    assert b"has a seat in this competition already" in promote.content


@pytest.mark.django_db
def test_window_dates_out_of_range_are_a_form_error(desk_client, competition):
    url = reverse("events:signup_desk", args=[competition.event.slug, competition.slug])
    for field in ("opens_at", "self_check_in_from"):
        values = {
            "opens_at": "2026-12-01T10:00",
            "closes_at": "2026-12-20T10:00",
            "cap": "4",
            "hold_minutes": "30",
            "offer_hours": "1",
            "self_check_in_from": "2026-12-19T10:00",
            "self_check_in_until": "2026-12-19T12:00",
        }
        values[field] = "0001-01-01T00:00"
        answer = desk_client.post(url, values)
        assert (
            answer.status_code == 400 and b"Choose a date between 2000 and 2100" in answer.content
        )
    assert not SignUp.objects.exists()
    assert not competition.__class__.objects.filter(sign_up_window__isnull=False).exists()
