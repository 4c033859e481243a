"""Invitations to a club: sent by an owner with the role given, renewed when sent again,
withdrawn, accepted once by the account that holds the address (verified), and mailed through
the outbox in the club's language (the invited person's own, once they have an account).

The answer to an owner is the same whether the address belongs to an account or not (nobody
learns who has one), and an owner sends at most ``INVITATIONS_PER_DAY`` a day per club.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from allauth.account.models import EmailAddress
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _, gettext_lazy

from events.accounts.services import language_of
from events.clubs.models import ClubInvitation
from events.clubs.services import ensure_owner
from events.common.siteurl import absolute_url
from events.errors import Conflict, Invalid, NotFound, Refused, refuse
from events.models import ClubRole, HostClub
from events.outbox.queue import drain_after_commit, enqueue

TOO_MANY = gettext_lazy(
    "%(count)s invitations in the last day from you or %(club)s: that is the most a day; send "
    "more tomorrow."
)
GONE = gettext_lazy(
    "This invitation is no longer valid: it was used, withdrawn or has expired. Ask the club's "
    "owner for a new one."
)
OTHER_ADDRESS = gettext_lazy(
    "This invitation is for %(address)s, and your account has not verified that address. Log "
    "in with the account that has it, or add and verify it on your account page."
)
ALREADY_HERE = gettext_lazy("You already hold a role at %(club)s.")
NO_SUCH = gettext_lazy("There is no such invitation.")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def masked(address: str) -> str:
    """``a…@example.org``: enough for its owner to recognise, not to harvest."""
    return ClubInvitation(email=address).masked_email


@dataclass(frozen=True)
class Sent:
    invitation: ClubInvitation
    url: str


def _mail(invitation: ClubInvitation, url: str, by: Any) -> None:
    holder = EmailAddress.objects.filter(email__iexact=invitation.email).select_related("user")
    account = holder.first()
    language = language_of(account.user) if account else invitation.club.language
    with translation.override(language):
        context = {
            "club": invitation.club.name,
            "by": by.get_username(),
            "role": invitation.get_role_display(),
            "url": url,
            "until": invitation.expires_at,
            "site_name": settings.SITE_NAME,
        }
        subject = _("%(by)s invites you to %(club)s") % context
        body = render_to_string("events/clubs/invitation_email.txt", context)
        key = f"invitation:{invitation.pk}:{invitation.token_hash[:16]}"
        enqueue(
            key=key,
            to=invitation.email,
            subject=f"[{settings.SITE_NAME}] {subject}",
            body=body,
            language=language,
        )
    drain_after_commit([key])


@transaction.atomic
def invitation_send(
    *, club: HostClub, by: Any, email: str, role: str, now: datetime | None = None
) -> Sent:
    """Invite ``email`` to the club with ``role`` (owners only). Sending again to an address
    with an open invitation renews it: a new link, a new expiry, the old link dead."""
    now = now or timezone.now()
    club = HostClub.objects.select_for_update().get(pk=club.pk)
    ensure_owner(club, by)
    address = (email or "").strip().lower()
    try:
        validate_email(address)
    except ValidationError:
        raise Invalid({"email": [_("Enter a valid e-mail address.")]}, code="bad_email") from None
    if role not in ClubRole.Role.values:
        raise Invalid({"role": [_("Choose one of the roles.")]}, code="bad_role")
    sent_today = ClubInvitation.objects.filter(
        club=club, created_at__gt=now - timedelta(days=1)
    ).count()
    sent_by_them = ClubInvitation.objects.filter(
        invited_by=by, created_at__gt=now - timedelta(days=1)
    ).count()
    if max(sent_today, sent_by_them) >= settings.INVITATIONS_PER_DAY:
        # per club, and per person across their clubs (clubs are free to start)
        raise refuse(
            TOO_MANY,
            error_class=Refused,
            code="too_many",
            club=club.name,
            count=max(sent_today, sent_by_them),
        )
    token = secrets.token_urlsafe(32)
    expires = now + timedelta(days=settings.INVITATION_DAYS)
    ClubInvitation.objects.filter(
        club=club, email=address, accepted_at__isnull=True, withdrawn_at__isnull=True
    ).update(withdrawn_at=now)
    invitation = ClubInvitation.objects.create(
        club=club,
        email=address,
        role=role,
        invited_by=by,
        token_hash=token_hash(token),
        created_at=now,
        expires_at=expires,
    )
    url = absolute_url(reverse("events:invitation", args=[token]))
    _mail(invitation, url, by)
    return Sent(invitation=invitation, url=url)


@transaction.atomic
def invitation_withdraw(
    *, club: HostClub, by: Any, invitation_id: int, now: datetime | None = None
) -> ClubInvitation:
    club = HostClub.objects.select_for_update().get(pk=club.pk)
    ensure_owner(club, by)
    invitation = ClubInvitation.objects.filter(
        club=club, pk=invitation_id, accepted_at__isnull=True, withdrawn_at__isnull=True
    ).first()
    if invitation is None:
        raise refuse(NO_SUCH, error_class=NotFound, code="no_such_invitation")
    invitation.withdrawn_at = now or timezone.now()
    invitation.save(update_fields=["withdrawn_at"])
    return invitation


def open_invitation(token: str, now: datetime | None = None) -> ClubInvitation | None:
    """The invitation of a link, if it can still be accepted (one query)."""
    if not token or len(token) > 100:
        return None
    # Good only while whoever sent it still owns the club (an owner removed or stepped down
    # takes their open invitations with them) and the club is not on its way out.
    inviter_owns = ClubRole.objects.filter(
        club=OuterRef("club"), user=OuterRef("invited_by"), role=ClubRole.Role.OWNER
    )
    return (
        ClubInvitation.objects.select_related("club", "invited_by")
        .filter(
            Exists(inviter_owns),
            token_hash=token_hash(token),
            accepted_at__isnull=True,
            withdrawn_at__isnull=True,
            expires_at__gt=now or timezone.now(),
            club__deletion_requested_at__isnull=True,
        )
        .first()
    )


def address_verified(user: Any, address: str) -> bool:
    return EmailAddress.objects.filter(user=user, email__iexact=address, verified=True).exists()


@transaction.atomic
def invitation_accept(*, token: str, user: Any, now: datetime | None = None) -> ClubRole:
    """The signed-in ``user`` takes the invitation: a role at the club, once. Refused for an
    account that has not verified the invited address."""
    now = now or timezone.now()
    found = open_invitation(token, now)
    if found is None:
        raise refuse(GONE, error_class=NotFound, code="invitation_gone")
    invitation = ClubInvitation.objects.select_for_update().get(pk=found.pk)
    if invitation.accepted_at or invitation.withdrawn_at:  # taken by a request just before
        raise refuse(GONE, error_class=NotFound, code="invitation_gone")
    if not address_verified(user, invitation.email):
        raise refuse(
            OTHER_ADDRESS,
            error_class=Refused,
            code="other_address",
            address=masked(invitation.email),
        )
    club = HostClub.objects.select_for_update().get(pk=invitation.club_id)
    if ClubRole.objects.filter(club=club, user=user).exists():
        raise refuse(ALREADY_HERE, error_class=Conflict, code="already_here", club=club.name)
    role = ClubRole(club=club, user=user, role=invitation.role)
    # The club's history names the owner who invited as the one who gave the role.
    role._history_user = invitation.invited_by  # type: ignore[attr-defined]
    role._change_reason = "invitation"  # type: ignore[attr-defined]
    try:
        with transaction.atomic():
            role.save()
    except IntegrityError:
        raise refuse(
            ALREADY_HERE, error_class=Conflict, code="already_here", club=club.name
        ) from None
    invitation.accepted_at = now
    invitation.accepted_by = user
    invitation.save(update_fields=["accepted_at", "accepted_by"])
    return role


def pending(club: HostClub, now: datetime | None = None) -> list[ClubInvitation]:
    """The club's open invitations, newest first (one query)."""
    inviter_owns = ClubRole.objects.filter(
        club=club, user=OuterRef("invited_by"), role=ClubRole.Role.OWNER
    )
    return list(
        ClubInvitation.objects.select_related("invited_by").filter(
            Exists(inviter_owns),
            club=club,
            accepted_at__isnull=True,
            withdrawn_at__isnull=True,
            expires_at__gt=now or timezone.now(),
        )
    )
