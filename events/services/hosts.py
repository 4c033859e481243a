"""Hosting clubs as the core needs them: which club a new event or series goes to.

The rest of a club's life (its settings, its people's roles, its pages) is the ``clubs`` room's
(``events.clubs``); the core only has to answer "whose is this new event?"."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils.text import slugify
from django.utils.translation import get_language, gettext as _, gettext_lazy

from events.errors import Conflict, Forbidden, Refused, refuse
from events.models import ClubRole, EventRole, HostClub

ADDRESS_TAKEN = gettext_lazy("Another club took this name a moment ago: try again.")

# Words after /c/ that no club's address may take.
RESERVED_CLUB_SLUGS = frozenset({"new", "static", "admin"})

AWAITING = gettext_lazy(
    "%(club)s is waiting for the site's staff to approve it: its events start once it is."
)
START_FIRST = gettext_lazy(
    "Start a club first (the site's staff approve new clubs), or ask a club's owner for an "
    "invitation."
)


def desk_language() -> str:
    """The active language when it is one of the site's, else the site's default."""
    active = get_language()
    codes = [code for code, _name in settings.LANGUAGES]
    return active if active in codes else settings.LANGUAGE_CODE


def unique_club_slug(name: str) -> str:
    base = (slugify(name) or "club")[:50]
    taken = set(HostClub.objects.filter(slug__startswith=base).values_list("slug", flat=True))
    taken |= RESERVED_CLUB_SLUGS
    candidate, n = base, 2
    while candidate in taken:
        candidate, n = f"{base}-{n}", n + 1
    return candidate


def club_save_new(club: HostClub, name: str) -> HostClub:
    """Save a new club under a free address made from ``name``: when another request took
    that address a moment ago (the unique slug), the next free one."""
    for _attempt in range(3):
        club.slug = unique_club_slug(name)
        try:
            with transaction.atomic():
                club.save()
                return club
        except IntegrityError:
            continue
    raise refuse(ADDRESS_TAKEN, error_class=Conflict, code="address_taken")


def clubs_run_by(user: Any) -> list[HostClub]:
    """The clubs where ``user`` may create events (owner or organiser; every club for a
    superuser), by name (one query)."""
    if not getattr(user, "is_authenticated", False):
        return []
    approved = HostClub.objects.filter(is_approved=True)
    if user.is_superuser:
        return list(approved.order_by("name", "pk"))
    return list(
        approved.filter(roles__user=user, roles__role__in=ClubRole.MANAGERS)
        .order_by("name", "pk")
        .distinct()
    )


def new_club_approved(by: Any) -> bool:
    """Whether a club ``by`` starts is approved from the start: always, unless the install has
    site staff approve new clubs (``CLUBS_NEED_APPROVAL``); a club staff start is approved."""
    return not settings.CLUBS_NEED_APPROVAL or bool(getattr(by, "is_staff", False))


@transaction.atomic
def host_for_new(user: Any, host: HostClub | None = None) -> HostClub:
    club = _host_for_new(user, host)
    if not club.is_approved:
        raise Refused(str(AWAITING) % {"club": club.name}, code="club_not_approved")
    return club


def _host_for_new(user: Any, host: HostClub | None = None) -> HostClub:
    """The club a new event or series of ``user`` goes to: ``host`` when they run it; without
    one, their first club (owner or organiser there); else the club of the latest event they
    own where the club lets its event owners start events (``event_owners_may_start``: the
    club the upgrade made, so that an organiser of an install from before clubs finds the
    same register at their next event); else, for someone new, a club of their own
    (unlisted, owned by them; they rename it or join a club later).
    Decided so that an organiser never meets a dead end before their first event."""
    if host is not None:
        if (
            user.is_superuser
            or ClubRole.objects.filter(club=host, user=user, role__in=ClubRole.MANAGERS).exists()
        ):
            return host
        if (
            host.event_owners_may_start
            and EventRole.objects.filter(user=user, role="owner", event__host=host).exists()
        ):
            return host
        raise Forbidden(
            _("You can create events only for clubs you run."), code="not_club_organiser"
        )
    mine = (
        HostClub.objects.filter(roles__user=user, roles__role__in=ClubRole.MANAGERS)
        .order_by("-is_approved", "name", "pk")
        .first()
    )
    if mine is not None:
        return mine
    owned = (
        EventRole.objects.filter(
            user=user, role=EventRole.Role.OWNER, event__host__event_owners_may_start=True
        )
        .select_related("event__host")
        .defer("event__host__logo")
        .order_by("-event__starts_on", "-event__pk")
        .first()
    )
    if owned is not None:
        return owned.event.host
    if not new_club_approved(user):
        raise Refused(str(START_FIRST), code="no_club")
    name = _("%(name)s's events") % {"name": user.get_username()}
    club = HostClub(name=name[:120], slug="club", is_listed=False, language=desk_language())
    club.full_clean(exclude=["slug"])
    club_save_new(club, user.get_username())
    ClubRole.objects.create(club=club, user=user, role=ClubRole.Role.OWNER)
    return club
