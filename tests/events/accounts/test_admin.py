"""The admin's reset of a second factor (events/accounts/admin.py)."""

from __future__ import annotations

from allauth.mfa.models import Authenticator
from django.urls import reverse

from events.models import ClubRole
from tests.support.accounts import mail_to as _mail_to
from tests.support.factories import UserFactory


def test_site_staff_reset_an_owners_second_factor_in_the_admin(client, club_of_two):
    club, owner, _organiser = club_of_two
    owner.email = "olle@example.org"
    owner.save()
    staff = UserFactory(username="root", is_staff=True, is_superuser=True)
    client.force_login(staff)
    response = client.post(
        reverse("admin:mfa_authenticator_changelist"),
        {
            "action": "reset_two_factor",
            "_selected_action": list(
                Authenticator.objects.filter(user=owner).values_list("pk", flat=True)
            ),
        },
    )
    assert response.status_code == 302
    assert not Authenticator.objects.filter(user=owner).exists()
    assert _mail_to("olle@example.org") is not None
    history = ClubRole.history.filter(user_id=owner.pk, history_change_reason="two-factor reset")
    assert history.count() == 1 and history.get().history_user == staff
