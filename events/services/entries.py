"""Entries: players registered in a competition, checked in, withdrawn and reinstated."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import ValidationError  # noqa: F401 (callers catch services.ValidationError)
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy

from events.errors import Conflict, NotFound, Refused, refuse
from events.formats import get_format
from events.models import (
    Competition,
    Entry,
    Player,
)
from events.outbox import webhooks
from events.services.events import competition_touch
from events.services.organisers import ensure_may_enter
from events.services.players import player_create
from events.services.submissions import submission_done, submission_use

NOT_IN_REGISTER = gettext_lazy("This person is not in the hosting club's register.")
ALREADY_REGISTERED = gettext_lazy("%(player)s is already registered in %(competition)s.")


ALREADY_CHECKED_IN = gettext_lazy("%(player)s is already checked in.")


NOT_CHECKED_IN = gettext_lazy("%(player)s is not checked in.")


UNDO_WHILE_RUNNING = gettext_lazy(
    "The competition has started, so %(player)s's check-in stays; withdraw them instead."
)


ALREADY_WITHDRAWN = gettext_lazy("%(player)s has withdrawn.")


NOT_WITHDRAWN = gettext_lazy("%(player)s has not withdrawn.")


COMPETITION_FINISHED = gettext_lazy("%(competition)s is finished; its entries cannot change.")


WITHDRAW_THROUGH_FORMAT = gettext_lazy(
    "%(competition)s is running: withdraw %(player)s on the competition's own withdrawal page, "
    "which shows and applies what happens to their games."
)


REINSTATE_WHILE_RUNNING = gettext_lazy(
    "%(competition)s is running and %(player)s's games have been settled; an admin can correct it."
)


def ensure_open(competition: Competition) -> None:
    if competition.is_finished:
        raise refuse(
            COMPETITION_FINISHED,
            error_class=Refused,
            code="competition_finished",
            competition=competition.name,
        )


def ensure_takes_entries(competition: Competition) -> None:
    """The format may refuse new entries and check-ins now (``FormatHooks.entry_check``)."""
    get_format(competition.format).hooks.entry_check(competition)


def _lock_competition(competition: Competition) -> None:
    # Player numbers are one more than the highest: one desk at a time picks them.
    list(Competition.objects.select_for_update().filter(pk=competition.pk).values("pk"))


@transaction.atomic
def player_register(
    *,
    competition: Competition,
    player: Player,
    check_in: bool = False,
    by: User | AnonymousUser | None = None,
) -> Entry:
    """Enter a known player into a competition (and check them in, with ``check_in``). ``by``
    (the desk's user) enters a stranger into a rated competition only as
    ``events.services.organisers.may_enter`` allows."""
    ensure_open(competition)
    ensure_takes_entries(competition)
    if player.host_id != competition.event.host_id:  # another club's register: not found here
        raise refuse(NOT_IN_REGISTER, error_class=NotFound, code="not_in_register")
    ensure_may_enter(competition=competition, player=player, by=by)
    _lock_competition(competition)
    if Entry.objects.filter(competition=competition, player=player).exists():
        raise refuse(
            ALREADY_REGISTERED,
            error_class=Conflict,
            code="already_registered",
            player=player,
            competition=competition.name,
        )
    try:
        with transaction.atomic():
            entry = Entry.objects.create(competition=competition, player=player)
    except IntegrityError as exc:  # a second desk registered the same player a moment ago
        raise refuse(
            ALREADY_REGISTERED,
            error_class=Conflict,
            code="already_registered",
            player=player,
            competition=competition.name,
        ) from exc
    if check_in:
        entry = entry_check_in(entry=entry)
    competition_touch(competition)
    webhooks.registration_changed(competition, entry.pk, "added")
    return entry


@transaction.atomic
def player_register_new(
    *,
    competition: Competition,
    name: str,
    club: str = "",
    email: str = "",
    rating: int | None = None,
    submission: str = "",
    check_in: bool = False,
    by: User | AnonymousUser | None = None,
    language: str = "",
) -> Entry:
    """Add a new person to the register and enter them, in one step (``player_exists`` if the
    register already has them: the desk then finds them with the search); ``check_in`` checks
    them in too, in the same transaction."""
    ensure_open(competition)
    ensure_takes_entries(competition)
    record = submission_use(submission)
    player = player_create(
        host_id=competition.event.host_id,
        name=name,
        club=club,
        email=email,
        rating=rating,
        language=language,
    )
    entry = player_register(competition=competition, player=player, check_in=check_in, by=by)
    submission_done(record, competition.get_desk_url())
    return entry


def _locked_entry(entry: Entry) -> Entry:
    # The competition first, then the entry: the order the formats' services lock them in
    # (Blokus locks a session with its competition, then the entry). Locking both in one
    # joined statement let a withdrawal and a session registration deadlock.
    list(Competition.objects.select_for_update().filter(pk=entry.competition_id).values("pk"))
    return (
        Entry.objects.select_for_update(of=("self",))
        .select_related("player", "competition")
        .get(pk=entry.pk)
    )


@transaction.atomic
def entry_check_in(*, entry: Entry) -> Entry:
    entry = _locked_entry(entry)
    ensure_open(entry.competition)
    ensure_takes_entries(entry.competition)
    if entry.withdrawn_at:
        raise refuse(
            ALREADY_WITHDRAWN, error_class=Refused, code="already_withdrawn", player=entry.player
        )
    if entry.checked_in_at:
        raise refuse(
            ALREADY_CHECKED_IN, error_class=Conflict, code="already_checked_in", player=entry.player
        )
    # The competition's row first (the version bump locks it), then the time: check-ins of one
    # competition are stamped in the order they commit, which formats place players by (the
    # sjoelen rota), so the hook below sees every earlier one.
    competition_touch(entry.competition)
    entry.checked_in_at = timezone.now()
    entry.save(update_fields=["checked_in_at"])
    get_format(entry.competition.format).hooks.check_in_changed(entry)
    webhooks.registration_changed(entry.competition, entry.pk, "checked_in")
    return entry


@transaction.atomic
def entry_undo_check_in(*, entry: Entry) -> Entry:
    entry = _locked_entry(entry)
    ensure_open(entry.competition)
    if entry.competition.status == Competition.Status.RUNNING:
        # Formats place players by check-in order (the sjoelen rota, Blokus roll call):
        # taking one out mid-competition would move everyone after them.
        raise refuse(
            UNDO_WHILE_RUNNING, error_class=Refused, code="undo_while_running", player=entry.player
        )
    if not entry.checked_in_at:
        raise refuse(
            NOT_CHECKED_IN, error_class=Refused, code="not_checked_in", player=entry.player
        )
    entry.checked_in_at = None
    entry.save(update_fields=["checked_in_at"])
    competition_touch(entry.competition)
    get_format(entry.competition.format).hooks.check_in_changed(entry)
    webhooks.registration_changed(entry.competition, entry.pk, "check_in_undone")
    return entry


def _format_runs_withdrawals(competition: Competition) -> bool:
    return competition.status == Competition.Status.RUNNING and bool(
        get_format(competition.format).hooks.running_withdraw_url
    )


@transaction.atomic
def entry_withdraw(*, entry: Entry) -> Entry:
    entry = _locked_entry(entry)
    ensure_open(entry.competition)
    if _format_runs_withdrawals(entry.competition):
        raise refuse(
            WITHDRAW_THROUGH_FORMAT,
            error_class=Refused,
            code="withdraw_through_format",
            competition=entry.competition.name,
            player=entry.player,
        )
    if entry.withdrawn_at:
        raise refuse(
            ALREADY_WITHDRAWN, error_class=Refused, code="already_withdrawn", player=entry.player
        )
    entry.withdrawn_at = timezone.now()
    entry.save(update_fields=["withdrawn_at"])
    competition_touch(entry.competition)
    webhooks.registration_changed(entry.competition, entry.pk, "withdrawn")
    return entry


@transaction.atomic
def entry_reinstate(*, entry: Entry) -> Entry:
    entry = _locked_entry(entry)
    ensure_open(entry.competition)
    if _format_runs_withdrawals(entry.competition):
        raise refuse(
            REINSTATE_WHILE_RUNNING,
            error_class=Refused,
            code="reinstate_while_running",
            competition=entry.competition.name,
            player=entry.player,
        )
    if not entry.withdrawn_at:
        raise refuse(NOT_WITHDRAWN, error_class=Refused, code="not_withdrawn", player=entry.player)
    entry.withdrawn_at = None
    entry.save(update_fields=["withdrawn_at"])
    competition_touch(entry.competition)
    webhooks.registration_changed(entry.competition, entry.pk, "reinstated")
    return entry
