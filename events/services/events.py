"""Events and competitions: created, given organisers and settings, and touched (their
public pages' versions bumped) by every write that changes them."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError  # noqa: F401 (callers catch services.ValidationError)
from django.db import transaction
from django.db.models import Q
from django.utils.text import slugify
from django.utils.translation import gettext as _, gettext_lazy

from events.errors import Conflict, Invalid, NotFound, Refused, refuse
from events.formats import clean_settings, get_format
from events.models import (
    Competition,
    Event,
    HostClub,
)
from events.services.hosts import host_for_new
from events.services.submissions import submission_done, submission_use
from events.versions import versions_bump

SETTINGS_LOCKED = gettext_lazy(
    "%(competition)s has started; its settings can no longer change here (an admin can)."
)


def competition_touch(competition: Competition) -> None:
    """Bump the versions public pages key their ETags on. Call inside the write's transaction."""
    versions_bump(competitions=Q(pk=competition.pk))


# Words the desk's URLs use after /desk/ and /desk/<event>/, which no slug may take.
RESERVED_SLUGS = frozenset(
    {
        "new",
        "entries",
        "competitions",
        "organisers",
        "admin",
        "static",
        "edit",
        "people",
        "players",
        "sign-up",
        "sign-ups",
        "series",
        "webhooks",
        "screens",
        "help",
        "clubs",
    }
)


def games_changed(competitions: Iterable[Competition]) -> None:
    """Tell each format that these competitions' games changed other than by a result (the
    event's first day moved, an import, a merged player): ``FormatHooks.games_changed``, per
    format. Inside the write's transaction."""
    by_format: dict[str, list[Competition]] = {}
    for competition in competitions:
        by_format.setdefault(competition.format, []).append(competition)
    for key, held in by_format.items():
        try:
            hooks = get_format(key).hooks
        except KeyError:  # a format no longer installed
            continue
        hooks.games_changed(held)


def _unique_slug(base: str, taken: Iterable[str], fallback: str) -> str:
    slug = (slugify(base) or fallback)[:50]
    taken = set(taken) | RESERVED_SLUGS
    candidate, n = slug, 2
    while candidate in taken:
        candidate, n = f"{slug}-{n}", n + 1
    return candidate


@transaction.atomic
def event_create(
    *,
    name: str,
    starts_on: dt.date,
    ends_on: dt.date,
    time_zone: str,
    organiser: User,
    venue: str = "",
    info: str = "",
    is_public: bool = True,
    language: str = "",
    host: HostClub | None = None,
) -> Event:
    """A new event of ``host`` (see ``hosts.host_for_new`` when none is named), owned by
    ``organiser``."""
    host = host_for_new(organiser, host)
    taken = Event.objects.filter(slug__startswith=slugify(name)[:50] or "event").values_list(
        "slug", flat=True
    )
    event = Event(
        host=host,
        name=name.strip(),
        slug=_unique_slug(name, taken, "event"),
        venue=venue.strip(),
        info=info.strip(),
        starts_on=starts_on,
        ends_on=ends_on,
        time_zone=time_zone,
        is_public=is_public,
        # Unsaid: the club's (a club made for this organiser has the desk's language).
        language=language or host.language,
    )
    event.full_clean()
    event.save()
    event.organisers.add(organiser, through_defaults={"role": "owner"})
    return event


NO_SUCH_USER = gettext_lazy("There is no login named “%(username)s”. An admin can create it.")


ALREADY_ORGANISER = gettext_lazy("%(username)s already organises %(event)s.")


@transaction.atomic
def event_add_organiser(*, event: Event, username: str) -> User:
    """Let another login run this event's desk."""
    user = get_user_model().objects.filter(username__iexact=username.strip()).first()
    if user is None:
        raise refuse(
            NO_SUCH_USER, error_class=NotFound, code="no_such_user", username=username.strip()[:150]
        )
    if event.organisers.filter(pk=user.pk).exists():
        raise refuse(
            ALREADY_ORGANISER,
            error_class=Conflict,
            code="already_organiser",
            username=user.get_username(),
            event=event.name,
        )
    event.organisers.add(user)
    return user


@transaction.atomic
def competition_create(
    *, event: Event, name: str, format: str, settings: dict[str, Any] | None = None
) -> Competition:
    taken = Competition.objects.filter(event=event).values_list("slug", flat=True)
    competition = Competition(
        event=event,
        name=name.strip(),
        slug=_unique_slug(name, taken, format),
        format=format,
    )
    try:
        competition.settings = clean_settings(format, settings or {})
    except (KeyError, ValueError) as exc:
        raise Invalid(
            _("These settings are not valid for the format."), code="bad_settings"
        ) from exc
    competition.full_clean()
    competition.save()
    versions_bump(events=Q(pk=event.pk))
    return competition


@transaction.atomic
def event_create_with_competition(
    *,
    name: str,
    starts_on: dt.date,
    ends_on: dt.date,
    time_zone: str,
    organiser: User,
    competition_name: str,
    competition_format: str,
    venue: str = "",
    info: str = "",
    is_public: bool = True,
    submission: str = "",
    language: str = "",
    host: HostClub | None = None,
) -> Competition:
    """The desk's "New event": the event and its first competition, together or not at all."""
    record = submission_use(submission)
    event = event_create(
        name=name,
        starts_on=starts_on,
        ends_on=ends_on,
        time_zone=time_zone,
        organiser=organiser,
        venue=venue,
        info=info,
        is_public=is_public,
        language=language,
        host=host,
    )
    competition = competition_create(event=event, name=competition_name, format=competition_format)
    submission_done(record, competition.get_desk_url())
    return competition


@transaction.atomic
def competition_update_settings(
    *, competition: Competition, settings: dict[str, Any]
) -> Competition:
    competition = Competition.objects.select_for_update().get(pk=competition.pk)
    if competition.status != Competition.Status.REGISTRATION:
        raise refuse(
            SETTINGS_LOCKED,
            error_class=Refused,
            code="settings_locked",
            competition=competition.name,
        )
    try:
        competition.settings = clean_settings(competition.format, settings)
    except ValueError as exc:
        raise Invalid(
            _("These settings are not valid for the format."), code="bad_settings"
        ) from exc
    competition.full_clean()
    competition.save(update_fields=["settings"])
    competition_touch(competition)
    return competition
