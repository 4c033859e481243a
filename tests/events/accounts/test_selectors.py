"""What the account page shows (events/accounts/selectors.py): the addresses primary first, the
second factors, the sessions, the clubs by name, in a constant number of queries."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from allauth.mfa.models import Authenticator
from allauth.usersessions.models import UserSession
from django.utils import timezone

from events.accounts.selectors import account_page
from events.models import ClubRole, HostClub
from tests.support import totp
from tests.support.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_the_page_lists_addresses_factors_sessions_and_clubs(django_assert_num_queries):
    user = UserFactory(username="page")
    EmailAddress.objects.create(user=user, email="zed@example.org", primary=False)
    EmailAddress.objects.create(user=user, email="main@example.org", primary=True)
    for name in ("Zeta", "Alpha"):
        club = HostClub.objects.create(name=name, slug=name.lower())
        ClubRole.objects.create(club=club, user=user, role="organiser")
    UserSession.objects.create(
        user=user,
        ip="127.0.0.1",
        session_key="s1",
        user_agent="x",
        created_at=timezone.now(),
        last_seen_at=timezone.now(),
    )
    with django_assert_num_queries(4):
        page = account_page(user)
    assert [a.email for a in page.addresses] == ["main@example.org", "zed@example.org"]
    assert [r.club.name for r in page.roles] == ["Alpha", "Zeta"]
    assert page.sessions == 1
    assert page.factors == set() and not page.two_factor


def test_a_second_factor_counts_but_recovery_codes_alone_do_not():
    user = UserFactory(username="secure")
    totp.turn_on(user)
    assert account_page(user).two_factor
    Authenticator.objects.filter(user=user).update(type=Authenticator.Type.RECOVERY_CODES)
    page = account_page(user)
    assert page.factors == {"recovery_codes"} and not page.two_factor
