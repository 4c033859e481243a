"""Two-factor login before personal data (events/accounts/twofactor.py): owners' sign-up lists, a
guest scorekeeper, the admin for site staff, a register person's page and the outbox's
addresses."""

from __future__ import annotations

import re

from allauth.mfa.models import Authenticator
from django.urls import reverse

from tests.support import totp
from tests.support.factories import UserFactory


def test_an_owner_cannot_open_the_sign_up_list_until_two_factor_is_on(client, fees_event):
    owner, competition = fees_event
    client.force_login(owner)
    url = reverse("events:signup_desk", args=[competition.event.slug, competition.slug])
    refused = client.get(url)
    assert refused.status_code == 403
    page = refused.content.decode()
    assert "Two-factor login needed" in page and reverse("mfa_activate_totp") in page
    export = reverse("events:event_export", args=[competition.event.slug])
    assert client.get(export).status_code == 403
    # Turned on through the pages, with the code an authenticator app computes (after the
    # password again: allauth asks for it before a security change)
    client.post(reverse("account_reauthenticate"), {"password": "pw-for-tests-only"})
    setup = client.get(reverse("mfa_activate_totp"))
    assert setup.status_code == 200
    secret = re.search(r"[A-Z2-7]{32}", setup.content.decode()).group(0)
    done = client.post(reverse("mfa_activate_totp"), {"code": totp.code(secret)})
    assert done.status_code == 302
    assert Authenticator.objects.filter(user=owner, type="totp").exists()
    assert client.get(url).status_code == 200
    # the page asked for last is offered on the two-factor pages
    assert export in client.get(reverse("mfa_index")).content.decode()


def test_a_guest_scorekeeper_is_not_asked_for_a_second_factor(client, fees_event):
    _owner, competition = fees_event
    keeper = UserFactory(username="kim")
    competition.event.organisers.add(keeper, through_defaults={"role": "scorekeeper"})
    client.force_login(keeper)
    desk = client.get(reverse("events:desk")).content.decode()
    assert "Turn on two-factor login" not in desk
    url = reverse("events:signup_desk", args=[competition.event.slug, competition.slug])
    response = client.get(url)
    assert response.status_code == 403
    assert "Two-factor login needed" not in response.content.decode()  # simply not theirs


def test_site_staff_open_the_admin_only_with_two_factor(client, db):
    staff = UserFactory(username="root", is_staff=True, is_superuser=True, two_factor=False)
    client.force_login(staff)
    response = client.get("/admin/")
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:two_factor_needed"))
    assert "Site staff" in client.get(response["Location"]).content.decode()
    totp.turn_on(staff)
    assert client.get("/admin/").status_code == 200


def test_a_register_persons_page_and_the_outbox_addresses_need_two_factor(client, fees_event):
    owner, competition = fees_event
    from events.outbox.queue import enqueue
    from tests.support.factories import EntryFactory

    entry = EntryFactory(competition=competition)
    enqueue(key="t:1", to="guest@example.org", subject="Seat", body="x", event=competition.event)
    client.force_login(owner)
    url = reverse("events:player_edit", args=[competition.event.slug, entry.player_id])
    assert client.get(url).status_code == 403
    desk = client.get(reverse("events:event_desk", args=[competition.event.slug]) + "?all")
    assert "guest@example.org" not in desk.content.decode()
    totp.turn_on(owner)
    assert client.get(url).status_code == 200
    desk = client.get(reverse("events:event_desk", args=[competition.event.slug]) + "?all")
    assert "guest@example.org" in desk.content.decode()
