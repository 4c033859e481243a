"""Who runs an event: roles, their services, and the rule for entering strangers into a
rated competition (the owner's "People" page is in ``events.desk.views.edit``).

Roles (``events.models.EventRole``): an **owner** does everything an organiser does and adds or
removes people; an **organiser** runs the whole desk; a **scorekeeper** enters and corrects
results only (``events.permissions.SCOREKEEPER`` views). Every event keeps at least one owner. A
superuser counts as an owner everywhere; staff without a role has no desk access.

Rated competitions (a format whose settings say ``rated``, e.g. the round robin): entering a
known player changes their rating everywhere and e-mails them, so an organiser may enter only
players who already play at one of the events they run (owner or organiser there), or players
no event has yet (new to the register). Anyone else is refused with ``stranger_in_rated``:
the player registers with this event themselves (they become "new here" for no one) or an
organiser of one of their events, or an admin, enters them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import gettext_lazy

from events.errors import Conflict, NotFound, Refused, refuse
from events.models import ClubRole, Competition, Entry, Event, EventRole, Player

Role = EventRole.Role

NO_SUCH_LOGIN = gettext_lazy("There is no login named “%(username)s”. An admin can create it.")
SAME_ROLE = gettext_lazy("%(username)s is already %(role)s of %(event)s.")
LAST_OWNER = gettext_lazy(
    "%(username)s is the only owner of %(event)s: make someone else owner first."
)
NO_ROLE = gettext_lazy("%(username)s has no role at %(event)s.")
STRANGER_IN_RATED = gettext_lazy(
    "%(player)s plays at events you do not run. %(competition)s is rated, so entering them "
    "would change their rating everywhere: they can register with you themselves, or an "
    "organiser of one of their events (or an admin) can enter them."
)


def _owners(event: Event) -> int:
    return EventRole.objects.filter(event=event, role=Role.OWNER).count()


@transaction.atomic
def event_role_set(*, event: Event, username: str, role: str) -> EventRole:
    """Give a login a role at an event (or change the role it has)."""
    username = username.strip()[:150]
    user = get_user_model().objects.filter(username__iexact=username).first()
    if user is None:
        raise refuse(NO_SUCH_LOGIN, error_class=NotFound, code="no_such_user", username=username)
    # The event row first: two owners changing roles at once are serialised, so the last owner
    # cannot be demoted twice.
    list(Event.objects.select_for_update().filter(pk=event.pk).values("pk"))
    current = EventRole.objects.filter(event=event, user=user).first()
    if current is not None and current.role == role:
        raise refuse(
            SAME_ROLE,
            error_class=Conflict,
            code="same_role",
            username=user.get_username(),
            role=Role(role).label,
            event=event.name,
        )
    if current is None:
        try:
            with transaction.atomic():
                return EventRole.objects.create(event=event, user=user, role=role)
        except IntegrityError:  # a second owner added them a moment ago
            current = EventRole.objects.get(event=event, user=user)
    if current.role == Role.OWNER and _owners(event) == 1:
        raise refuse(
            LAST_OWNER,
            error_class=Refused,
            code="last_owner",
            username=user.get_username(),
            event=event.name,
        )
    current.role = role
    current.full_clean()
    current.save(update_fields=["role"])
    return current


@transaction.atomic
def event_role_remove(*, event: Event, user_id: int) -> EventRole:
    list(Event.objects.select_for_update().filter(pk=event.pk).values("pk"))
    current = EventRole.objects.select_related("user").filter(event=event, user_id=user_id).first()
    if current is None:
        raise refuse(NO_ROLE, error_class=NotFound, code="no_role", username=user_id, event=event)
    if current.role == Role.OWNER and _owners(event) == 1:
        raise refuse(
            LAST_OWNER,
            error_class=Refused,
            code="last_owner",
            username=current.user.get_username(),
            event=event.name,
        )
    current.delete()
    return current


def is_rated(competition: Competition) -> bool:
    """A competition whose results change ratings (its format's settings say ``rated``)."""
    return bool(getattr(competition.options, "rated", False))


def _events_run_by(user: Any) -> Any:
    """The events ``user`` runs (owner or organiser), there or at the hosting club: a subquery."""
    at_event = Q(roles__user=user, roles__role__in=EventRole.MANAGERS)
    at_club = Q(host__roles__user=user, host__roles__role__in=ClubRole.MANAGERS)
    return Event.objects.filter(at_event | at_club).values("pk")


def may_enter(*, competition: Competition, player: Player, by: Any) -> bool:
    """Whether ``by`` may enter ``player`` into ``competition`` (see the module docstring)."""
    if by is None or not is_rated(competition) or by.is_superuser:
        return True
    entries = Entry.objects.filter(player=player)
    if not entries.exists():  # new to the register: no event has them yet
        return True
    return entries.filter(competition__event__in=_events_run_by(by)).exists()


def strangers(*, competition: Competition, player_ids: Iterable[int], by: Any) -> set[int]:
    """Which of these players ``by`` may not enter (``may_enter`` for many, two queries): for
    a CSV import's known rows."""
    ids = set(player_ids)
    if by is None or not ids or not is_rated(competition) or by.is_superuser:
        return set()
    entered = set(
        Entry.objects.filter(player__in=ids).values_list("player_id", flat=True).distinct()
    )
    ours = set(
        Entry.objects.filter(player__in=entered, competition__event__in=_events_run_by(by))
        .values_list("player_id", flat=True)
        .distinct()
    )
    return entered - ours


def ensure_may_enter(*, competition: Competition, player: Player, by: Any) -> None:
    """Refuse (``stranger_in_rated``) what ``may_enter`` does not allow."""
    if not may_enter(competition=competition, player=player, by=by):
        raise refuse(
            STRANGER_IN_RATED,
            error_class=Refused,
            code="stranger_in_rated",
            player=player,
            competition=competition.name,
        )
