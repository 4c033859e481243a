"""Writes of hosting clubs: a new club, its settings, the roles of its people.

Every write is one transaction; the rules stand in the database too (one role per person and
club, known role names). A club always keeps an owner: the last one cannot leave, be removed or
be demoted; ownership is handed over (the new owner first, then the old one steps down); site
staff restore an owner to a club left without one (its owners' accounts deleted). Each change of
role is a row of ``ClubRole``'s history with the person who made it (``history_user``).

Decided: only owners change roles and settings; an organiser runs every event of the club but
not the club itself; anyone may leave a club they hold a role at (but its last owner).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _, gettext_lazy

from events.errors import Conflict, Forbidden, Invalid, NotFound, Refused, refuse
from events.models import ClubRole, HostClub
from events.services.editing import signature
from events.services.hosts import club_save_new, new_club_approved, unique_club_slug
from events.services.players import clean_text
from events.versions import versions_bump

# What an owner sets on the club's settings page (and the history lists).
CLUB_FIELDS = (
    "name",
    "short_name",
    "country",
    "language",
    "time_zone",
    "contact_email",
    "band_colour",
    "stripe_colour",
    "is_listed",
    "event_owners_may_start",
)

ONLY_STAFF = gettext_lazy("Only the site's staff approve clubs.")
LAST_OWNER = gettext_lazy("%(club)s needs an owner: hand the ownership to someone else first.")
NO_SUCH_USER = gettext_lazy("There is no login named “%(username)s”.")
ALREADY_HERE = gettext_lazy("%(username)s already holds a role at %(club)s.")
NOT_HERE = gettext_lazy("That person holds no role at this club.")
STALE_CLUB = gettext_lazy(
    "Someone else changed the club's settings while you were editing: the form now shows what "
    "is stored. Your values are beside it; apply them again if they still hold."
)
ONLY_OWNERS = gettext_lazy("Only the club's owners may do this.")
HAS_OWNER = gettext_lazy("%(club)s has an owner: its owners hand the ownership over.")


def role_at(club: HostClub, user: Any) -> str | None:
    """``user``'s role at ``club`` (a superuser: owner), or None (one query)."""
    if not getattr(user, "is_authenticated", False):
        return None
    if user.is_superuser:
        return ClubRole.Role.OWNER
    return ClubRole.objects.filter(club=club, user=user).values_list("role", flat=True).first()


def ensure_owner(club: HostClub, user: Any) -> None:
    if role_at(club, user) != ClubRole.Role.OWNER:
        raise Forbidden(str(ONLY_OWNERS), code="not_owner")


def _checked(club: HostClub) -> None:
    try:
        club.full_clean(exclude=["slug"])
    except ValidationError as exc:
        raise Invalid(exc.message_dict, code="invalid_club") from None


def _cleaned(values: Mapping[str, Any]) -> dict[str, Any]:
    cleaned = {k: v for k, v in values.items() if k in CLUB_FIELDS}
    for name in ("name", "short_name"):
        if name in cleaned:
            cleaned[name] = clean_text(str(cleaned[name]))
    for name in ("band_colour", "stripe_colour"):
        if name in cleaned:
            cleaned[name] = str(cleaned[name] or "").strip().lower()
    if "contact_email" in cleaned:
        cleaned["contact_email"] = str(cleaned["contact_email"] or "").strip()
    return cleaned


@transaction.atomic
def club_create(*, by: Any, values: Mapping[str, Any]) -> HostClub:
    """A new hosting club, ``by`` its owner."""
    cleaned = _cleaned(values)
    club = HostClub(**cleaned)
    club.is_approved = new_club_approved(by)
    club.slug = unique_club_slug(club.name)
    _checked(club)
    club._history_user = by  # type: ignore[attr-defined]
    club_save_new(club, club.name)
    role = ClubRole(club=club, user=by, role=ClubRole.Role.OWNER)
    role._history_user = by  # type: ignore[attr-defined]
    role.save()
    return club


def _touch_pages(club: HostClub) -> None:
    """The club's colours and name are on its events' public pages: they re-render."""
    versions_bump(events=Q(host=club), competitions=Q(event__host=club))


@transaction.atomic
def club_update(*, club: HostClub, by: Any, expected: str, values: Mapping[str, Any]) -> HostClub:
    """Change the club's settings; refused (``stale_edit``) when someone changed them since the
    form was drawn (``expected``: ``signature(club, CLUB_FIELDS)``)."""
    club = HostClub.objects.select_for_update().get(pk=club.pk)
    ensure_owner(club, by)
    if expected != signature(club, CLUB_FIELDS):
        raise refuse(STALE_CLUB, error_class=Conflict, code="stale_edit")
    changed = []
    for name, value in _cleaned(values).items():
        if getattr(club, name) != value:
            setattr(club, name, value)
            changed.append(name)
    if not changed:
        return club
    _checked(club)
    club._history_user = by  # type: ignore[attr-defined]
    club.save(update_fields=changed)
    _touch_pages(club)
    return club


def _owners(club: HostClub) -> int:
    return ClubRole.objects.filter(club=club, role=ClubRole.Role.OWNER).count()


def _save_role(role: ClubRole, by: Any) -> ClubRole:
    role._history_user = by  # type: ignore[attr-defined]
    try:
        with transaction.atomic():
            role.save()
    except IntegrityError as exc:  # the same person given a role at once by two owners
        raise refuse(
            ALREADY_HERE,
            error_class=Conflict,
            code="already_here",
            username=role.user.get_username(),
            club=role.club.name,
        ) from exc
    return role


def _locked(club: HostClub) -> HostClub:
    # One change of roles at a time per club: the last-owner rule counts owners.
    return HostClub.objects.select_for_update().get(pk=club.pk)


@transaction.atomic
def role_grant(*, club: HostClub, by: Any, username: str, role: str) -> ClubRole:
    """Give the login ``username`` a role at the club (owners only)."""
    club = _locked(club)
    ensure_owner(club, by)
    if role not in ClubRole.Role.values:
        raise Invalid({"role": [_("Choose one of the roles.")]}, code="bad_role")
    user = get_user_model().objects.filter(username__iexact=username.strip()).first()
    if user is None:
        raise refuse(
            NO_SUCH_USER, error_class=NotFound, code="no_such_user", username=username.strip()[:150]
        )
    if ClubRole.objects.filter(club=club, user=user).exists():
        raise refuse(
            ALREADY_HERE,
            error_class=Conflict,
            code="already_here",
            username=user.get_username(),
            club=club.name,
        )
    return _save_role(ClubRole(club=club, user=user, role=role), by)


@transaction.atomic
def role_change(*, club: HostClub, by: Any, user_id: int, role: str) -> ClubRole:
    """Change someone's role (owners only); the last owner is not demoted."""
    club = _locked(club)
    ensure_owner(club, by)
    if role not in ClubRole.Role.values:
        raise Invalid({"role": [_("Choose one of the roles.")]}, code="bad_role")
    current = ClubRole.objects.select_related("user").filter(club=club, user_id=user_id).first()
    if current is None:
        raise refuse(NOT_HERE, error_class=NotFound, code="not_here")
    if current.role == role:
        return current
    if current.role == ClubRole.Role.OWNER and _owners(club) <= 1:
        raise refuse(LAST_OWNER, error_class=Refused, code="last_owner", club=club.name)
    current.role = role
    return _save_role(current, by)


@transaction.atomic
def role_remove(*, club: HostClub, by: Any, user_id: int) -> ClubRole:
    """Take someone's role away (owners), or leave the club (anyone, for themselves); never
    the last owner."""
    club = _locked(club)
    if getattr(by, "pk", None) != user_id:
        ensure_owner(club, by)
    current = ClubRole.objects.select_related("user").filter(club=club, user_id=user_id).first()
    if current is None:
        raise refuse(NOT_HERE, error_class=NotFound, code="not_here")
    if current.role == ClubRole.Role.OWNER and _owners(club) <= 1:
        raise refuse(LAST_OWNER, error_class=Refused, code="last_owner", club=club.name)
    current._history_user = by  # type: ignore[attr-defined]
    current.delete()
    return current


@transaction.atomic
def ownership_hand_over(*, club: HostClub, by: Any, user_id: int) -> ClubRole:
    """``by`` (an owner) makes someone who holds a role at the club its owner, and becomes an
    organiser. The new owner is made first: the club never has no owner."""
    club = _locked(club)
    ensure_owner(club, by)
    heir = ClubRole.objects.select_related("user").filter(club=club, user_id=user_id).first()
    if heir is None:
        raise refuse(NOT_HERE, error_class=NotFound, code="not_here")
    if heir.role != ClubRole.Role.OWNER:
        heir.role = ClubRole.Role.OWNER
        _save_role(heir, by)
    mine = ClubRole.objects.filter(club=club, user=by).first()
    if mine is not None and mine.pk != heir.pk:
        mine.role = ClubRole.Role.ORGANISER
        _save_role(mine, by)
    return heir


@transaction.atomic
def owner_restore(*, club: HostClub, by: Any, username: str) -> ClubRole:
    """Site staff give a club left without an owner a new one (refused while it has one)."""
    club = _locked(club)
    if not (getattr(by, "is_staff", False) or getattr(by, "is_superuser", False)):
        raise Forbidden(_("Only site staff may restore a club's owner."), code="not_staff")
    if _owners(club):
        raise refuse(HAS_OWNER, error_class=Refused, code="has_owner", club=club.name)
    user = get_user_model().objects.filter(username__iexact=username.strip()).first()
    if user is None:
        raise refuse(
            NO_SUCH_USER, error_class=NotFound, code="no_such_user", username=username.strip()[:150]
        )
    current = ClubRole.objects.filter(club=club, user=user).first() or ClubRole(
        club=club, user=user
    )
    current.role = ClubRole.Role.OWNER
    return _save_role(current, by)


def clubs_without_owner() -> list[HostClub]:
    """For site staff: clubs whose owners are all gone (one query)."""
    owned = ClubRole.objects.filter(role=ClubRole.Role.OWNER).values("club")
    return list(HostClub.objects.exclude(pk__in=owned).order_by("name"))


@transaction.atomic
def club_deletion_request(*, club: HostClub, by: Any) -> HostClub:
    """An owner asks for the club to be deleted: it goes after the notice period
    (``CLUB_DELETION_DAYS``) unless an owner takes the request back."""
    club = _locked(club)
    ensure_owner(club, by)
    if club.deletion_requested_at is None:
        club.deletion_requested_at = timezone.now()
        club._history_user = by  # type: ignore[attr-defined]
        club.save(update_fields=["deletion_requested_at"])
    return club


@transaction.atomic
def club_deletion_cancel(*, club: HostClub, by: Any) -> HostClub:
    club = _locked(club)
    ensure_owner(club, by)
    if club.deletion_requested_at is not None:
        club.deletion_requested_at = None
        club._history_user = by  # type: ignore[attr-defined]
        club.save(update_fields=["deletion_requested_at"])
    return club


def clubs_delete_due(*, now: Any) -> int:
    """Delete the clubs whose deletion was asked for ``CLUB_DELETION_DAYS`` ago: their events
    and series with everything in them, their register, and (as a person's erasure does) the
    register's rows in the history tables. Each club in its own transaction."""
    from django.conf import settings

    from events.models import Event, Player
    from events.series.models import Series

    due = now - timedelta(days=settings.CLUB_DELETION_DAYS)
    deleted = 0
    for club_id in HostClub.objects.filter(deletion_requested_at__lte=due).values_list(
        "pk", flat=True
    ):
        with transaction.atomic():
            club = HostClub.objects.select_for_update().filter(pk=club_id).first()
            if club is None or club.deletion_requested_at is None:
                continue  # taken back, or deleted by another worker a moment ago
            for event in Event.objects.filter(host=club):
                event.delete()
            Series.objects.filter(host=club).delete()
            people = list(Player.objects.filter(host=club).values_list("pk", flat=True))
            Player.objects.filter(pk__in=people).delete()
            Player.history.filter(id__in=people).delete()
            ClubRole.objects.filter(club=club).delete()
            club.delete()
            deleted += 1
    return deleted


@transaction.atomic
def club_approve(*, club: HostClub, by: Any) -> bool:
    """Site staff approve a club someone asked for; its owners are told. False when it was
    approved already."""
    if not by.is_staff:
        raise Forbidden(str(ONLY_STAFF), code="not_staff")
    if not HostClub.objects.filter(pk=club.pk, is_approved=False).update(is_approved=True):
        return False
    from events.clubs.mails import club_approved_mail

    club_approved_mail(club)
    return True
