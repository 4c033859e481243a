"""The account's writes beside allauth's own: the language it reads mails in, its deletion,
and a lost second factor reset by the club's owner or by site staff."""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

from allauth.mfa.models import Authenticator
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Count
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _, gettext_lazy

from events.accounts.models import AccountLanguage
from events.common.siteurl import absolute_url
from events.errors import Forbidden, Invalid, NotFound, Refused, refuse
from events.models import ClubRole, EventRole, HostClub
from events.outbox.queue import drain_after_commit, enqueue

LAST_OWNER = gettext_lazy(
    "You are the only owner of %(clubs)s: hand the ownership to someone else, or ask for the "
    "club's deletion, before you delete your account."
)
WRONG_PASSWORD = gettext_lazy("That is not your password.")
NOT_YOURS = gettext_lazy("Only the club's owners may reset an organiser's two-factor login.")
OWNER_BY_STAFF = gettext_lazy("An owner's two-factor login is reset by the site's staff.")
NOT_IN_CLUB = gettext_lazy("This person holds no role at the club.")
ELSEWHERE = gettext_lazy(
    "This person also has site staff rights, a role at another club or at another club's event, "
    "or was an owner here in the last 30 days: the site's staff reset their two-factor login."
)
NOTHING_TO_RESET = gettext_lazy("This person has no two-factor login to reset.")


def language_of(user: Any) -> str:
    """The language the person last used the site in, else the site's."""
    found = AccountLanguage.objects.filter(user_id=user.pk).values_list("language", flat=True)
    return found.first() or settings.LANGUAGE_CODE


def language_remember(user: Any, language: str) -> None:
    """Keep the language a signed-in person uses (at every login); unknown codes are ignored."""
    code = (language or "")[:2]
    if code not in {c for c, _n in settings.LANGUAGES}:
        return
    AccountLanguage.objects.update_or_create(user=user, defaults={"language": code})


def logged_in(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    """``user_logged_in``: keep the language the person logs in with (their mails follow it)."""
    language_remember(user, getattr(request, "LANGUAGE_CODE", "") if request else "")


def _sole_owned(clubs: list[HostClub]) -> list[HostClub]:
    """Those of ``clubs`` with one owner only (one query, however many clubs)."""
    owners = dict(
        ClubRole.objects.filter(club__in=clubs, role=ClubRole.Role.OWNER)
        .values("club")
        .annotate(count=Count("pk"))
        .values_list("club", "count")
    )
    return [club for club in clubs if owners.get(club.pk) == 1]


def last_owned_clubs(user: Any) -> list[HostClub]:
    """The clubs of which ``user`` is the only owner (two queries)."""
    owned = HostClub.objects.filter(roles__user=user, roles__role=ClubRole.Role.OWNER)
    return _sole_owned(list(owned.order_by("name", "pk")))


@transaction.atomic
def account_delete(*, user: Any, password: str) -> None:
    """Delete the account after its password; refused while it is a club's last owner. Its
    roles go with it; results it entered stay, without the name of who entered them."""
    user = get_user_model().objects.select_for_update().get(pk=user.pk)
    if not user.check_password(password or ""):
        raise Invalid({"password": [str(WRONG_PASSWORD)]}, code="wrong_password")
    # The owners of each club are counted under the club's row lock (events.clubs.services).
    clubs = list(
        HostClub.objects.select_for_update()
        .filter(roles__user=user, roles__role=ClubRole.Role.OWNER)
        .order_by("pk")
    )
    last = [club.name for club in _sole_owned(clubs)]
    if last:
        raise refuse(LAST_OWNER, error_class=Refused, code="last_owner", clubs=", ".join(last))
    user.delete()


def _reset_mail(person: Any, by: Any, club: HostClub | None) -> None:
    """Tell the person, in their language, that their second factor was reset and by whom."""
    if not person.email:
        return
    with translation.override(language_of(person)):
        context = {
            "by": by.get_username(),
            "club": club.name if club else "",
            "site_name": settings.SITE_NAME,
            "login_url": absolute_url(reverse("account_login")),
        }
        subject = _("Your two-factor login was reset")
        body = render_to_string("events/accounts/two_factor_reset_email.txt", context)
        key = f"account:mfa-reset:{person.pk}:{secrets.token_hex(8)}"
        enqueue(
            key=key,
            to=person.email,
            subject=f"[{settings.SITE_NAME}] {subject}",
            body=body,
            language=translation.get_language() or "",
        )
    drain_after_commit([key])


def only_here(person: Any, club: HostClub) -> bool:
    """Whether an owner of ``club`` may reset ``person``'s second factor: a role there and
    nowhere else, no staff rights, and not an owner there lately. **Decided:** a role is given
    without the person's consent (by login name) and the second factor guards the whole
    account, so an owner must not reach, through a role they gave, what the person holds
    elsewhere, nor a co-owner demoted a moment ago; everyone else goes to the site's staff."""
    if person.is_staff or person.is_superuser:
        return False
    if ClubRole.objects.filter(user=person).exclude(club=club).exists():
        return False
    if EventRole.objects.filter(user=person).exclude(event__host=club).exists():
        return False
    lately = timezone.now() - timedelta(days=30)
    return not ClubRole.history.filter(
        club_id=club.pk, user_id=person.pk, role=ClubRole.Role.OWNER, history_date__gte=lately
    ).exists()


@transaction.atomic
def two_factor_reset(*, by: Any, person_id: int, club: HostClub | None = None) -> int:
    """Remove a person's second factors and recovery codes (they lost their phone): by an
    owner of ``club`` for its organisers and scorekeepers, by site staff for anyone. Recorded
    in the club's history of roles (or, by staff, the admin's log) and mailed to the person.
    Returns the number of authenticators removed."""
    person = get_user_model().objects.filter(pk=person_id).first()
    if person is None:
        raise refuse(NOT_IN_CLUB, error_class=NotFound, code="not_here")
    role = None
    if club is not None:
        role = ClubRole.objects.select_for_update().filter(club=club, user=person).first()
        if role is None:
            raise refuse(NOT_IN_CLUB, error_class=NotFound, code="not_here")
    if not by.is_staff:
        if (
            club is None
            or not ClubRole.objects.filter(club=club, user=by, role=ClubRole.Role.OWNER).exists()
        ):
            raise refuse(NOT_YOURS, error_class=Forbidden, code="not_owner")
        if role is not None and role.role == ClubRole.Role.OWNER:
            raise refuse(OWNER_BY_STAFF, error_class=Forbidden, code="owner_by_staff")
        if club is not None and not only_here(person, club):
            raise refuse(ELSEWHERE, error_class=Forbidden, code="owner_by_staff")
    removed, _detail = Authenticator.objects.filter(user=person).delete()
    if not removed:
        raise refuse(NOTHING_TO_RESET, error_class=Refused, code="nothing_to_reset")
    # A row in the club's history of roles (by staff without a club: in each of the person's
    # clubs): who reset whose second factor, and when.
    recorded = [role] if role is not None else list(ClubRole.objects.filter(user=person))
    for row in recorded:
        row._history_user = by  # type: ignore[attr-defined]
        row._change_reason = "two-factor reset"  # type: ignore[attr-defined]
        row.save()
    _reset_mail(person, by, club)
    return removed
