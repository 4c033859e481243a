"""The person's sign-up pages through real requests (events/signups/views/person.py): a person
signs up, confirms from the e-mail's link, waits, is offered a freed seat and accepts; what the page
shows on a phone (who, what, when, the fee owed only for a seat, captioned QR codes, a grouped IBAN,
an offer past its end); the link's token; and every hostile input answered with a clear refusal
and nothing written."""

from __future__ import annotations

import base64
import binascii
import datetime as dt
import re
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core import signing
from django.test import override_settings
from django.urls import reverse
from django.utils import formats, timezone, translation

from events.models import AttemptCounter, Entry, Session
from events.outbox.models import OutboxMessage
from events.signups.models import SignUp, SignUpStatus
from events.signups.services import lifecycle as signups, mail as signup_mail
from tests.support.factories import CompetitionFactory, EntryFactory, PlayerFactory
from tests.support.signups import form, open_window, person_page, signed_up, text_of, token_of


@pytest.mark.django_db
def test_sign_up_confirm_wait_offer_accept(client, competition):
    open_window(competition, cap=1)
    url = reverse("events:signup", args=[competition.event.slug])
    for n in (1, 2):
        sent = client.post(url, form(competition, n))
        assert sent.status_code == 200, sent.content.decode()[:2000]
        assert b"Check your e-mail" in sent.content
    first, second = token_of("p1@example.org"), token_of("p2@example.org")
    page = client.get(reverse("events:signup_person", args=[first]))
    assert page.status_code == 200 and b"Confirm" in page.content
    assert page["Cache-Control"].count("no-store") == 1
    for token in (first, second):
        assert client.post(reverse("events:signup_confirm", args=[token])).status_code == 302
    one, two = SignUp.objects.order_by("pk")
    assert (one.status, two.status) == ("confirmed", "waitlisted")
    assert Entry.objects.filter(competition=competition).count() == 1
    waiting = client.get(reverse("events:signup_person", args=[second]))
    assert b"Place 1 on the waitlist." in waiting.content

    cancel = reverse("events:signup_action", args=[first, one.pk, "cancel"])
    assert client.post(cancel).status_code == 302
    two.refresh_from_db()
    assert two.status == SignUpStatus.OFFERED
    offer = OutboxMessage.objects.filter(to="p2@example.org").order_by("-pk").first()
    assert "is free for you" in offer.subject
    accept = reverse("events:signup_action", args=[token_of("p2@example.org"), two.pk, "accept"])
    assert client.post(accept).status_code == 302
    two.refresh_from_db()
    assert two.status == SignUpStatus.CONFIRMED and two.entry is not None
    assert client.post(accept).status_code == 302  # a replayed accept changes nothing
    assert list(Entry.objects.filter(competition=competition)) == [two.entry]


@pytest.mark.django_db
def test_bad_input_is_refused_beside_its_field_and_writes_nothing(client, competition):
    open_window(competition, cap=1)
    url = reverse("events:signup", args=[competition.event.slug])
    cases = [
        ({"name": "x" * 10_000}, b"at most 100 characters"),
        ({"email": "not-an-address"}, b"valid email"),
        ({"consent": ""}, b"This field is required"),
        ({"competitions": ["999999"]}, b"Select a valid choice"),
        ({"competitions": []}, b"This field is required"),
        ({"rating": "-5"}, b"greater than or equal to 0"),
        ({"name": "\u200b \u2028 "}, b"Type your name."),
    ]
    for change, words in cases:
        answer = client.post(url, form(competition, 1) | change)
        assert answer.status_code == 400, change
        assert words in answer.content, (change, answer.content.decode()[:3000])
        typed = change.get("email", "p1@example.org")
        assert f'value="{typed}"'.encode() in answer.content  # what was typed is kept
    assert not SignUp.objects.exists() and not OutboxMessage.objects.exists()

    first = client.post(url, form(competition, 1))
    # The same address again is answered as a new sign-up: the page tells nobody who has
    # signed up (as the resend form does not); the address's inbox gets its link.
    again = client.post(url, form(competition, 1, name="Someone Else"))
    assert again.status_code == first.status_code == 200
    assert again.content == first.content
    assert b"has signed up" not in again.content
    assert SignUp.objects.count() == 1
    links = OutboxMessage.objects.filter(to="p1@example.org", key__startswith="signup-link:")
    assert links.count() == 1  # the second is the same minute's link: once a minute at most

    # A formula-like name is kept as typed (the exports neutralise it) and escaped in pages.
    client.post(url, form(competition, 3, name='=HYPERLINK("http://x")<b>'))
    assert SignUp.objects.filter(name='=HYPERLINK("http://x")<b>').exists()


@pytest.mark.django_db
def test_a_closed_window_and_a_bot_write_nothing(client, competition):
    window = open_window(competition)
    url = reverse("events:signup", args=[competition.event.slug])
    bot = client.post(url, form(competition, 1, website="http://spam.example"))
    assert bot.status_code == 200 and b"Check your e-mail" in bot.content
    assert not SignUp.objects.exists() and not OutboxMessage.objects.exists()

    signups.window_set(
        competition=competition,
        opens_at=window.opens_at - dt.timedelta(days=2),
        closes_at=timezone.now() - dt.timedelta(minutes=1),
        cap=2,
    )
    closed = client.post(url, form(competition, 1))
    assert closed.status_code == 400
    assert b"Sign-up is closed." in closed.content
    assert not SignUp.objects.exists()


@pytest.mark.django_db
def test_the_eleventh_sign_up_from_one_address_is_refused(client, competition):
    open_window(competition, cap=50)
    url = reverse("events:signup", args=[competition.event.slug])
    for n in range(10):
        assert client.post(url, form(competition, n)).status_code == 200
    eleventh = client.post(url, form(competition, 10))
    assert eleventh.status_code == 429
    assert b"Too many sign-ups from your network" in eleventh.content
    assert b'value="p10@example.org"' in eleventh.content
    assert SignUp.objects.count() == 10
    # Another address is not held up.
    other = client.post(url, form(competition, 11), REMOTE_ADDR="10.0.0.9")
    assert other.status_code == 200
    assert AttemptCounter.objects.filter(key__startswith="signup:").count() == 2


class OldSigner(signing.TimestampSigner):
    def timestamp(self):
        return signing.b62_encode(int(timezone.now().timestamp()) - 31 * 24 * 3600)


@pytest.mark.django_db
def test_tampered_expired_and_other_peoples_links(client, competition):
    open_window(competition, cap=1)
    url = reverse("events:signup", args=[competition.event.slug])
    client.post(url, form(competition, 1))
    client.post(url, form(competition, 2))
    mine, theirs = token_of("p1@example.org"), token_of("p2@example.org")
    other = SignUp.objects.get(email="p2@example.org")

    tampered = mine[:-2] + ("AA" if not mine.endswith("AA") else "BB")
    for token in (tampered, "x" * 600, "nonsense", ""):
        if token:
            assert client.get(reverse("events:signup_person", args=[token])).status_code == 404
    old = OldSigner(salt=signup_mail.LINK_SALT).sign_object("p1@example.org", compress=False)
    expired = client.get(reverse("events:signup_person", args=[old]))
    assert expired.status_code == 410 and b"This link has expired" in expired.content
    assert client.post(reverse("events:signup_confirm", args=[old])).status_code == 410

    # My link cannot touch their sign-up.
    for action in ("cancel", "accept", "decline"):
        answer = client.post(reverse("events:signup_action", args=[mine, other.pk, action]))
        assert answer.status_code == 404
    assert (
        client.post(reverse("events:signup_action", args=[theirs, other.pk, "nope"])).status_code
        == 404
    )
    other.refresh_from_db()
    assert other.status == SignUpStatus.PENDING
    # A GET never confirms (mail scanners open links).
    assert client.get(reverse("events:signup_confirm", args=[theirs])).status_code == 405
    assert client.get(reverse("events:signup_person", args=[theirs])).status_code == 200
    other.refresh_from_db()
    assert other.status == SignUpStatus.PENDING


@pytest.mark.django_db
def test_a_link_again_goes_only_to_an_address_that_signed_up(client, competition):
    open_window(competition)
    event = competition.event
    client.post(reverse("events:signup", args=[event.slug]), form(competition, 1))
    OutboxMessage.objects.all().delete()
    resend = reverse("events:signup_resend", args=[event.slug])
    known = client.post(resend, {"resend-email": "P1@example.org"})
    unknown = client.post(resend, {"resend-email": "stranger@example.org"})
    assert known.status_code == unknown.status_code == 200
    assert [m.to for m in OutboxMessage.objects.all()] == ["p1@example.org"]
    assert client.post(resend, {"resend-email": "x" * 300}).status_code == 400


@pytest.mark.django_db
def test_pages_run_a_constant_number_of_queries(
    client, desk_client, competition, django_assert_max_num_queries
):
    open_window(competition, cap=5)
    for n in range(20):
        s = signups.signup_submit(
            window=competition.sign_up_window, name=f"P {n}", email=f"p{n}@example.org"
        )
        signups.signup_confirm(sign_up=s)
    other = CompetitionFactory(event=competition.event)
    open_window(other, cap=3)
    signups.signup_confirm(
        sign_up=signups.signup_submit(
            window=other.sign_up_window, name="P 0", email="p0@example.org"
        )
    )
    token = signup_mail.person_token("p0@example.org")
    with django_assert_max_num_queries(8):
        assert (
            client.get(reverse("events:signup", args=[competition.event.slug])).status_code == 200
        )
    with django_assert_max_num_queries(6):
        assert client.get(reverse("events:signup_person", args=[token])).status_code == 200
    url = reverse("events:signup_desk", args=[competition.event.slug, competition.slug])
    with django_assert_max_num_queries(14):
        assert desk_client.get(url).status_code == 200


@pytest.mark.django_db
def test_self_check_in_at_the_door_and_the_desk_undoes_it(client, desk_client, competition):
    now = timezone.now()
    signups.window_set(
        competition=competition,
        opens_at=now - dt.timedelta(days=1),
        closes_at=now + dt.timedelta(days=1),
        cap=4,
        self_check_in_from=now - dt.timedelta(minutes=30),
        self_check_in_until=now + dt.timedelta(minutes=30),
    )
    client.post(reverse("events:signup", args=[competition.event.slug]), form(competition, 1))
    token = token_of("p1@example.org")
    client.post(reverse("events:signup_confirm", args=[token]))
    sign_up = SignUp.objects.get()
    page = client.get(reverse("events:signup_person", args=[token])).content.decode()
    assert "Code on the door screen" in page

    screen = desk_client.get(
        reverse("events:door_screen", args=[competition.event.slug, competition.slug])
    )
    code = re.search(r'class="door-code"[^>]*>(\d{5})<', screen.content.decode()).group(1)
    check_in = reverse("events:signup_action", args=[token, sign_up.pk, "check-in"])
    wrong = client.post(check_in, {"code": "x" * 5000}, follow=True)
    assert b"not the code on the door screen" in wrong.content
    done = client.post(check_in, {"code": code}, follow=True)
    assert b"You are checked in for" in done.content and b"Checked in." in done.content
    entry = Entry.objects.get(competition=competition)
    assert entry.checked_in_at is not None
    assert b"checked in" in desk_client.get(competition.get_desk_url()).content
    undo = reverse("events:entry_action", args=[entry.pk, "undo_check_in"])
    assert desk_client.post(undo).status_code in (200, 302)
    entry.refresh_from_db()
    assert entry.checked_in_at is None
    # Someone else's link cannot check this seat in.
    other = signup_mail.person_token("stranger@example.org")
    stranger = reverse("events:signup_action", args=[other, sign_up.pk, "check-in"])
    assert client.post(stranger, {"code": code}).status_code == 404


@pytest.mark.django_db
def test_data_download_and_erasure_keep_the_standings_but_the_name(client, competition):
    open_window(competition, cap=1)
    url = reverse("events:signup", args=[competition.event.slug])
    client.post(url, form(competition, 1, name="Erika Eriksson", club="Lund"))
    client.post(url, form(competition, 2))
    mine = token_of("p1@example.org")
    client.post(reverse("events:signup_confirm", args=[mine]))
    client.post(reverse("events:signup_confirm", args=[token_of("p2@example.org")]))
    entry = Entry.objects.get(competition=competition)
    assert entry.player.name == "Erika Eriksson"

    data = client.get(reverse("events:signup_data", args=[mine]))
    assert data.status_code == 200 and "no-store" in data["Cache-Control"]
    document = data.json()
    assert document["email"] == "p1@example.org"
    assert document["sign_ups"][0]["name"] == "Erika Eriksson"
    assert document["register"][0]["club"] == "Lund" and document["emails"]

    from events.outbox import queue as outbox

    outbox.drain()  # sent messages stay (without their words) after erasure, with their keys
    erase = reverse("events:signup_erase", args=[mine])
    unconfirmed = client.post(erase, follow=True)
    assert b"Tick the box" in unconfirmed.content
    assert Entry.objects.get(pk=entry.pk).player.name == "Erika Eriksson"
    done = client.post(erase, {"confirm": "erase"})
    assert done.status_code == 200 and b"Your data is erased" in done.content
    player = type(entry.player).objects.get(pk=entry.player_id)
    assert player.name == f"№ {player.pk}" and player.email == "" and player.club == ""
    assert not player.history.filter(name="Erika Eriksson").exists()
    assert not player.history.filter(search_text__contains="erika").exists()
    assert not player.history.filter(person_key__contains="erika").exists()
    assert not SignUp.objects.filter(email="p1@example.org").exists()
    assert not SignUp.history.filter(name="Erika Eriksson").exists()
    assert not OutboxMessage.objects.filter(body__contains="Erika").exists()
    # Outbox keys outlive erasure (deduplication): none is a plain hash of the address.
    import hashlib

    plain = hashlib.sha256(b"p1@example.org").hexdigest()[:24]
    assert not OutboxMessage.objects.filter(key__contains=plain).exists()
    # The seat was freed (nothing played yet): the waitlist's first is offered it.
    assert SignUp.objects.get(email="p2@example.org").status == SignUpStatus.OFFERED
    page = client.get(competition.get_absolute_url()).content.decode()
    assert "Erika" not in page


@pytest.mark.django_db
def test_the_form_mails_in_the_page_language_and_a_cancelled_person_gets_a_link(
    client, competition
):
    open_window(competition, cap=2)
    page = client.get(
        reverse("events:signup", args=[competition.event.slug]), HTTP_ACCEPT_LANGUAGE="sv"
    )
    assert b'<option value="sv" selected>' in page.content
    client.post(reverse("events:signup", args=[competition.event.slug]), form(competition, 1))
    sign_up = SignUp.objects.get()
    signups.signup_cancel(sign_up=sign_up)
    OutboxMessage.objects.all().delete()
    resend = reverse("events:signup_resend", args=[competition.event.slug])
    assert client.post(resend, {"resend-email": "p1@example.org"}).status_code == 200
    assert OutboxMessage.objects.filter(to="p1@example.org").count() == 1


@pytest.mark.django_db
def test_the_person_page_links_a_round_robin_seat_to_its_private_page(client, event):
    from roundrobin.models import PlayerToken

    competition = CompetitionFactory(event=event, format="roundrobin", slug="rr")
    open_window(competition, cap=2)
    seated = signups.signup_confirm(
        sign_up=signups.signup_submit(
            window=competition.sign_up_window, name="Rita", email="rita@example.org"
        )
    )
    PlayerToken.objects.create(entry=seated.entry, token="t" * 43, created_at=timezone.now())
    page = client.get(
        reverse("events:signup_person", args=[signup_mail.person_token("rita@example.org")])
    )
    assert reverse("roundrobin:private", args=["t" * 43]).encode() in page.content
    assert b"Your private page" in page.content


@pytest.mark.django_db
def test_the_name_shown_in_public_is_the_persons_choice(client, competition):
    """Item 7: full name, or first name and initial, on the public pages; the desk keeps the
    full name; the choice changed from the person's page reaches the pages at once."""
    open_window(competition)
    page = reverse("events:signup", args=[competition.event.slug])
    data = form(competition, 1, name="Åsa Öberg", email="asa@example.org", name_shown="short")
    assert client.post(page, {**data, "name_shown": "nickname"}).status_code == 400
    assert client.post(page, data).status_code == 200
    token = token_of("asa@example.org")
    client.post(reverse("events:signup_confirm", args=[token]))
    player = Entry.objects.get(competition=competition).player
    assert (player.name, player.name_shown, player.public_name) == ("Åsa Öberg", "short", "Åsa Ö.")

    public = client.get(competition.get_absolute_url()).content.decode()
    assert "Åsa Ö." in public and "Öberg" not in public
    event_page = client.get(competition.event.get_absolute_url()).content.decode()
    assert "Öberg" not in event_page

    person = reverse("events:signup_person", args=[token])
    choice = reverse("events:signup_name_shown", args=[token])
    assert re.search(r'value="short"[^>]*checked', client.get(person).content.decode())
    # A value not offered, or a link altered: refused, nothing changed.
    client.post(choice, {"name_shown": "<script>"})
    assert (
        client.post(reverse("events:signup_name_shown", args=[token + "x"]), {}).status_code == 404
    )
    player.refresh_from_db()
    assert player.name_shown == "short"

    assert client.post(choice, {"name_shown": "full"}).status_code == 302
    player.refresh_from_db()
    assert player.name_shown == "full"
    assert "Åsa Öberg" in client.get(competition.get_absolute_url()).content.decode()
    assert SignUp.objects.get().name_shown == "full"


@pytest.mark.django_db
def test_the_event_page_links_the_sign_up_until_it_closes(client, competition):
    event_url = competition.event.get_absolute_url()
    sign_up = reverse("events:signup", args=[competition.event.slug])
    assert sign_up.encode() not in client.get(event_url).content
    now = timezone.now()
    signups.window_set(
        competition=competition,
        opens_at=now + dt.timedelta(days=1),
        closes_at=now + dt.timedelta(days=2),
        cap=4,
    )
    assert sign_up.encode() in client.get(event_url).content  # opens later: linked already
    signups.window_set(
        competition=competition,
        opens_at=now - dt.timedelta(days=2),
        closes_at=now - dt.timedelta(days=1),
        cap=4,
    )
    assert sign_up.encode() not in client.get(event_url).content


@pytest.mark.django_db
def test_public_texts_shorten_whole_names_only(competition):
    from events.models import Correction, Player
    from events.selectors import with_public_texts

    entry = EntryFactory(competition=competition, player=PlayerFactory(name="Anna Berg"))
    Player.objects.filter(pk=entry.player_id).update(name_shown="short")
    line = Correction(
        competition=competition, item="Anna Berg – Anna Bergström", before="1", after="0"
    )
    [shown] = with_public_texts([line])
    assert shown.public["item"] == "Anna B. – Anna Bergström"


# --- the link's token: the address encrypted -----------------------------------------------------


def decodings(token: str) -> list[bytes]:
    """The token read as base64 (either alphabet) from each of its first four characters, so a
    readable address at any alignment would show in one of them."""
    found = []
    for start in range(4):
        part = token[start:]
        part = part[: len(part) - len(part) % 4]
        for decode in (base64.urlsafe_b64decode, base64.b64decode):
            try:
                found.append(decode(part))
            except (binascii.Error, ValueError):
                pass
    return found


@pytest.mark.django_db
def test_the_link_does_not_show_the_address(client, competition):
    open_window(competition)
    client.post(reverse("events:signup", args=[competition.event.slug]), form(competition, 1))
    token = token_of("p1@example.org")
    assert token == token.strip() and "=" not in token and ":" not in token
    assert re.fullmatch(r"[A-Za-z0-9_-]+", token)
    assert decodings(token)
    for raw in [token.encode(), *decodings(token)]:
        assert b"p1@example.org" not in raw.lower() and b"example" not in raw.lower()
        assert b"p1@" not in raw.lower()
    # Each link is new (a fresh IV): two links of one address share nothing readable.
    assert signup_mail.person_token("p1@example.org") != signup_mail.person_token("p1@example.org")
    assert signup_mail.person_email(token) == "p1@example.org"
    assert client.get(reverse("events:signup_person", args=[token])).status_code == 200


@pytest.mark.django_db
def test_a_link_sent_before_the_change_still_opens_the_page_until_it_expires(client, competition):
    open_window(competition)
    client.post(reverse("events:signup", args=[competition.event.slug]), form(competition, 1))
    old = signing.dumps("p1@example.org", salt=signup_mail.LINK_SALT, compress=False)
    assert ":" in old
    page = client.get(reverse("events:signup_person", args=[old]))
    assert page.status_code == 200 and b"p1@example.org" in page.content
    assert client.post(reverse("events:signup_confirm", args=[old])).status_code == 302
    assert SignUp.objects.get().status == SignUpStatus.CONFIRMED
    with time_machine.travel(timezone.now() + dt.timedelta(days=31)):
        assert client.get(reverse("events:signup_person", args=[old])).status_code == 410
    altered = old[:-3] + ("xyz" if not old.endswith("xyz") else "abc")
    assert client.get(reverse("events:signup_person", args=[altered])).status_code == 404


@pytest.mark.django_db
def test_an_altered_link_is_404_at_every_character(client, competition):
    open_window(competition)
    client.post(reverse("events:signup", args=[competition.event.slug]), form(competition, 1))
    token = token_of("p1@example.org")
    for i, c in enumerate(token):
        for other in {"A", "B", "Q", "g", "-"} - {c}:
            with pytest.raises(signing.BadSignature):
                signup_mail.person_email(token[:i] + other + token[i + 1 :])
    for altered in (token[:-1], token + "A", token + "=", token[1:], token.swapcase()):
        with pytest.raises(signing.BadSignature):
            signup_mail.person_email(altered)
    # Through the pages: a 404, never a 500 (characters outside base64 included).
    middle = "B" if token[40] != "B" else "C"
    for altered in (token[:40] + middle + token[41:], token[:-1], "A" * 120, "é" * 20, "a+b"):
        page = client.get(reverse("events:signup_person", args=[altered]))
        assert page.status_code == 404, altered


@pytest.mark.django_db
def test_a_link_expires_after_30_days_with_the_way_back(client, competition):
    open_window(competition)
    client.post(reverse("events:signup", args=[competition.event.slug]), form(competition, 1))
    token = token_of("p1@example.org")
    person = reverse("events:signup_person", args=[token])
    with time_machine.travel(timezone.now() + dt.timedelta(days=29)):
        assert client.get(person).status_code == 200
    with time_machine.travel(timezone.now() + dt.timedelta(days=31)):
        expired = client.get(person)
        assert expired.status_code == 410 and b"This link has expired" in expired.content
        assert client.post(reverse("events:signup_confirm", args=[token])).status_code == 410
        with pytest.raises(signing.SignatureExpired):
            signup_mail.person_email(token)
    assert SignUp.objects.get().status == SignUpStatus.PENDING
    # A token stamped later than now (a clock ahead) is not taken as expired, nor opened.
    later = signup_mail.person_token("p1@example.org", now=timezone.now() + dt.timedelta(hours=1))
    with pytest.raises(signing.BadSignature) as refused:
        signup_mail.person_email(later)
    assert not isinstance(refused.value, signing.SignatureExpired)


@pytest.mark.django_db
def test_links_made_before_a_key_rotation_keep_working(client, competition, settings):
    open_window(competition)
    client.post(reverse("events:signup", args=[competition.event.slug]), form(competition, 1))
    before = signup_mail.person_token("p1@example.org")
    with override_settings(SECRET_KEY="a-new-key-" + "x" * 40, SECRET_KEY_FALLBACKS=[]):
        stranger = signup_mail.person_token("p1@example.org")
    rotated = override_settings(
        SECRET_KEY="the-next-key-" + "y" * 40, SECRET_KEY_FALLBACKS=[settings.SECRET_KEY]
    )
    with rotated:
        assert client.get(reverse("events:signup_person", args=[before])).status_code == 200
        after = signup_mail.person_token("p1@example.org")
        assert client.get(reverse("events:signup_person", args=[after])).status_code == 200
        # A key never configured here opens nothing.
        assert client.get(reverse("events:signup_person", args=[stranger])).status_code == 404
    # The old key alone does not open a link made with the new one.
    assert client.get(reverse("events:signup_person", args=[after])).status_code == 404


@pytest.mark.django_db
def test_no_break_and_ideographic_spaces_in_a_name_are_spaces(client, competition, desk_client):
    open_window(competition)
    url = reverse("events:signup", args=[competition.event.slug])
    client.post(url, form(competition, 1, name="Anna\u00a0Nbsp\u3000Ide"))
    assert SignUp.objects.get().name == "Anna Nbsp Ide"
    desk_client.post(
        reverse("events:register_new", args=[competition.event.slug, competition.slug]),
        {"name": "Tiit\u00a0Tamm", "submission": "k" * 32},
    )
    assert Entry.objects.filter(player__name="Tiit Tamm").exists()


IBAN = "SE4550000000058398257466"


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
