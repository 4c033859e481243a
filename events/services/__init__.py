"""Every write of the shared events app: one function per user action, each in a transaction.

Services validate (``full_clean`` plus the checks below), write, and bump the version of the
competition and event they touched, so that public pages know to re-render. Errors a person
caused are typed errors from ``events.errors`` with a message from the constants below.

Races (issue 14) are settled by the database, not by checking first:

- One person, one row: ``Player.person_key`` (folded name, "|", folded club; a "|" or "\\"
  inside a name is escaped) is unique together with ``Player.homonym``. The desk and the CSV
  import always use homonym 0, so two desks adding the same person at once get one row; the
  loser gets ``Conflict`` ``player_exists`` (the desk then finds the person with the search).
  A true homonym (another person of the same name and club) is recorded by an admin giving
  them homonym 1, 2, ... on the player's admin page; a CSV row names homonym 0.
- The CSV import (``events.exchange.players``) runs in a savepoint; if a concurrent import wrote
some
  of its players or entries first, it plans the file again against what is now committed (so
  the second of two identical imports reports every row as already registered), or gives up
  with ``csv_race`` after three tries. Nothing is ever half-written.
- Player numbers (``Entry.number``, unique per competition) are taken under the competition's
  row lock (``player_register``, the import).
- Forms that create things (new event, register new player, CSV import) carry a one-time
  token (``events.desk.forms.SubmissionTokenField``); the service records it in
  ``SubmissionToken`` in its own transaction, so a second post of the same form raises
  ``AlreadySubmitted`` (with where the first one led) and creates nothing. A refused post
  leaves its token unused. A post without a token is not protected (kept for API-like
  clients and old pages). Tokens are deleted after a day.
- Every desk action is one service call in one transaction: "New event" is
  ``event_create_with_competition``; Blokus "register + check in" is
  ``blokus.services.sessions.session_register_and_check_in``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import ValidationError  # noqa: F401 (callers catch services.ValidationError)
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.module_loading import import_string
from django.utils.text import slugify
from django.utils.translation import get_language, gettext as _, gettext_lazy

from events.errors import Conflict, Invalid, NotFound, Refused, refuse
from events.formats import clean_settings, get_format
from events.models import (
    Competition,
    Correction,
    Entry,
    Event,
    Player,
    SubmissionToken,
    person_key as _person_key,
)
from events.services.organisers import ensure_may_enter
from events.versions import versions_bump

ALREADY_REGISTERED = gettext_lazy("%(player)s is already registered in %(competition)s.")
PLAYER_EXISTS = gettext_lazy(
    "%(player)s is already in the player register: find them with the search above."
)
ALREADY_CHECKED_IN = gettext_lazy("%(player)s is already checked in.")
NOT_CHECKED_IN = gettext_lazy("%(player)s is not checked in.")
UNDO_WHILE_RUNNING = gettext_lazy(
    "The competition has started, so %(player)s's check-in stays; withdraw them instead."
)
ALREADY_WITHDRAWN = gettext_lazy("%(player)s has withdrawn.")
NOT_WITHDRAWN = gettext_lazy("%(player)s has not withdrawn.")
COMPETITION_FINISHED = gettext_lazy("%(competition)s is finished; its entries cannot change.")
SETTINGS_LOCKED = gettext_lazy(
    "%(competition)s has started; its settings can no longer change here (an admin can)."
)
WITHDRAW_THROUGH_FORMAT = gettext_lazy(
    "%(competition)s is running: withdraw %(player)s on the competition's own withdrawal page, "
    "which shows and applies what happens to their games."
)
REINSTATE_WHILE_RUNNING = gettext_lazy(
    "%(competition)s is running and %(player)s's games have been settled; an admin can correct it."
)
CSV_EMPTY = gettext_lazy("The file has no players in it.")
CSV_RACE = gettext_lazy(
    "Someone registered one of these players while the file was read; upload it again."
)
ALREADY_SUBMITTED = gettext_lazy(
    "This form had already been sent; it was acted on once, and nothing was done twice."
)
CSV_TOO_MANY_ROWS = gettext_lazy("The file has more than %(limit)s rows.")

CSV_MAX_ROWS = 2000


_refuse = refuse


CORRECTION_UNDONE = gettext_lazy("This correction has already been undone.")
CORRECTION_NO_UNDO = gettext_lazy("Corrections of this kind cannot be undone from the desk.")


def correction_record(
    *,
    competition: Competition,
    item: str,
    before: str,
    after: str,
    source: str,
    by: User | None = None,
    entry: Entry | None = None,
    note: str = "",
    payload: dict[str, Any] | None = None,
    reverts: Correction | None = None,
) -> Correction | None:
    """Write a correction to the trail, inside the caller's transaction (the caller bumps the
    version). Nothing is written when nothing changed."""
    if before == after and reverts is None:
        return None
    return Correction.objects.create(
        competition=competition,
        entry=entry,
        item=item[:120],
        before=before[:120],
        after=after[:120],
        note=note[:300],
        source=source,
        corrected_by=by if by is not None and by.is_authenticated else None,
        payload=payload or {},
        reverts=reverts,
    )


@transaction.atomic
def correction_undo(*, correction: Correction, by: User) -> None:
    """Put back what a correction replaced, through the format's own services."""
    correction = Correction.objects.select_for_update().get(pk=correction.pk)
    if Correction.objects.filter(reverts=correction).exists():
        raise _refuse(CORRECTION_UNDONE, error_class=Conflict, code="correction_undone")
    game_format = correction.competition.game_format
    if not game_format.undo_correction or not correction.payload:
        raise _refuse(CORRECTION_NO_UNDO, error_class=Refused, code="correction_no_undo")
    import_string(game_format.undo_correction)(correction, by)


def competition_touch(competition: Competition) -> None:
    """Bump the versions public pages key their ETags on. Call inside the write's transaction."""
    versions_bump(competitions=Q(pk=competition.pk))


SUBMISSION_TOKEN_DAYS = 1


class AlreadySubmitted(Conflict):
    """A form posted a second time (a double click, a resent page): nothing was done again.
    ``url`` is where the first post led, when known."""

    default_code = "already_submitted"

    def __init__(self, url: str = "") -> None:
        super().__init__(ALREADY_SUBMITTED, code=self.default_code)
        self.url = url


def submission_use(token: str) -> SubmissionToken | None:
    """Record a form's one-time token inside the caller's transaction, or refuse a second use.

    A second post of the same token waits (PostgreSQL) for the first one's transaction, then
    finds the token and raises ``AlreadySubmitted``; if the first one failed, its token was
    rolled back with it and the second one acts. An empty token (a client without the hidden
    field) records nothing. Tokens older than a day are removed on the way.
    """
    if not token:
        return None
    cutoff = timezone.now() - dt.timedelta(days=SUBMISSION_TOKEN_DAYS)
    SubmissionToken.objects.filter(created_at__lt=cutoff).delete()
    try:
        with transaction.atomic():
            return SubmissionToken.objects.create(token=token[:64])
    except IntegrityError:
        used = SubmissionToken.objects.filter(token=token[:64]).first()
        raise AlreadySubmitted(used.url if used else "") from None


def submission_seen(token: str) -> bool:
    """Whether a client's submission key (the desk's offline queue, static/js/offline.js) was
    acted on already: a cheap look before a view does any work for a replay. The service still
    records the key with ``submission_use`` in its own transaction, which is what settles it."""
    return bool(token) and SubmissionToken.objects.filter(token=token[:64]).exists()


def _submission_done(record: SubmissionToken | None, url: str) -> None:
    if record is not None:
        SubmissionToken.objects.filter(pk=record.pk).update(url=url[:300])


# Words the desk's URLs use after /desk/ and /desk/<event>/, which no slug may take.
RESERVED_SLUGS = frozenset(
    {"new", "entries", "competitions", "organisers", "admin", "static", "edit", "people", "players"}
)


def _unique_slug(base: str, taken: Iterable[str], fallback: str) -> str:
    slug = (slugify(base) or fallback)[:50]
    taken = set(taken) | RESERVED_SLUGS
    candidate, n = slug, 2
    while candidate in taken:
        candidate, n = f"{slug}-{n}", n + 1
    return candidate


def _desk_language() -> str:
    """The active language when it is one of the site's, else the site's default."""
    active = get_language()
    codes = [code for code, _name in django_settings.LANGUAGES]
    return active if active in codes else django_settings.LANGUAGE_CODE


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
) -> Event:
    taken = Event.objects.filter(slug__startswith=slugify(name)[:50] or "event").values_list(
        "slug", flat=True
    )
    event = Event(
        name=name.strip(),
        slug=_unique_slug(name, taken, "event"),
        venue=venue.strip(),
        info=info.strip(),
        starts_on=starts_on,
        ends_on=ends_on,
        time_zone=time_zone,
        is_public=is_public,
        # Unsaid: the language the organiser sees the desk in (issue 11).
        language=language or _desk_language(),
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
        raise _refuse(
            NO_SUCH_USER, error_class=NotFound, code="no_such_user", username=username.strip()[:150]
        )
    if event.organisers.filter(pk=user.pk).exists():
        raise _refuse(
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
    )
    competition = competition_create(event=event, name=competition_name, format=competition_format)
    _submission_done(record, competition.get_desk_url())
    return competition


@transaction.atomic
def competition_update_settings(
    *, competition: Competition, settings: dict[str, Any]
) -> Competition:
    competition = Competition.objects.select_for_update().get(pk=competition.pk)
    if competition.status != Competition.Status.REGISTRATION:
        raise _refuse(
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


def clean_text(text: str) -> str:
    """Whitespace folded and invisible characters (zero-width spaces, controls) removed."""
    return " ".join("".join(c if c.isprintable() else " " for c in text).split())


def _player_build(
    *, name: str, club: str = "", email: str = "", rating: int | None = None, language: str = ""
) -> Player:
    player = Player(
        name=clean_text(name), club=clean_text(club), email=email.strip(), language=language
    )
    if rating is not None:
        player.rating = rating
    player.full_clean(exclude=["search_text", "person_key"])
    return player


def person_key(name: str, club: str) -> str:
    """Who a register row is: name and club, each without case or accents (``Player.person_key``,
    unique with ``homonym``)."""
    return _person_key(name, club)


def _person_of(key: str) -> Player | None:
    return Player.objects.filter(person_key=key).order_by("homonym").first()


@transaction.atomic
def player_create(
    *, name: str, club: str = "", email: str = "", rating: int | None = None, language: str = ""
) -> Player:
    """Add a person to the register, refusing a second record of the same name and club.

    The unique key (``person_key``, ``homonym``) decides: when two desks add the same person at
    once, the database lets one insert through and the other gets ``player_exists``.
    """
    player = _player_build(name=name, club=club, email=email, rating=rating, language=language)
    key = person_key(player.name, player.club)
    existing = _person_of(key)
    if existing is None:
        try:
            with transaction.atomic():
                player.save()
                return player
        except IntegrityError:  # another desk added this person a moment ago
            existing = _person_of(key)
            if existing is None:
                raise
    raise _refuse(PLAYER_EXISTS, error_class=Conflict, code="player_exists", player=existing)


def _ensure_open(competition: Competition) -> None:
    if competition.is_finished:
        raise _refuse(
            COMPETITION_FINISHED,
            error_class=Refused,
            code="competition_finished",
            competition=competition.name,
        )


def _ensure_takes_entries(competition: Competition) -> None:
    """The format may refuse new entries and check-ins now (``GameFormat.entry_check``)."""
    check = get_format(competition.format).entry_check
    if check:
        import_string(check)(competition)


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
    _ensure_open(competition)
    _ensure_takes_entries(competition)
    ensure_may_enter(competition=competition, player=player, by=by)
    _lock_competition(competition)
    if Entry.objects.filter(competition=competition, player=player).exists():
        raise _refuse(
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
        raise _refuse(
            ALREADY_REGISTERED,
            error_class=Conflict,
            code="already_registered",
            player=player,
            competition=competition.name,
        ) from exc
    if check_in:
        entry = entry_check_in(entry=entry)
    competition_touch(competition)
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
    _ensure_open(competition)
    _ensure_takes_entries(competition)
    record = submission_use(submission)
    player = player_create(name=name, club=club, email=email, rating=rating, language=language)
    entry = player_register(competition=competition, player=player, check_in=check_in, by=by)
    _submission_done(record, competition.get_desk_url())
    return entry


def _locked_entry(entry: Entry) -> Entry:
    # The competition first, then the entry: the order the formats' services lock them in
    # (Blokus locks a session with its competition, then the entry). Locking both in one
    # joined statement let a withdrawal and a session registration deadlock (issue 14).
    list(Competition.objects.select_for_update().filter(pk=entry.competition_id).values("pk"))
    return (
        Entry.objects.select_for_update(of=("self",))
        .select_related("player", "competition")
        .get(pk=entry.pk)
    )


@transaction.atomic
def entry_check_in(*, entry: Entry) -> Entry:
    entry = _locked_entry(entry)
    _ensure_open(entry.competition)
    _ensure_takes_entries(entry.competition)
    if entry.withdrawn_at:
        raise _refuse(
            ALREADY_WITHDRAWN, error_class=Refused, code="already_withdrawn", player=entry.player
        )
    if entry.checked_in_at:
        raise _refuse(
            ALREADY_CHECKED_IN, error_class=Conflict, code="already_checked_in", player=entry.player
        )
    entry.checked_in_at = timezone.now()
    entry.save(update_fields=["checked_in_at"])
    competition_touch(entry.competition)
    return entry


@transaction.atomic
def entry_undo_check_in(*, entry: Entry) -> Entry:
    entry = _locked_entry(entry)
    _ensure_open(entry.competition)
    if entry.competition.status == Competition.Status.RUNNING:
        # Formats place players by check-in order (the sjoelen rota, Blokus roll call):
        # taking one out mid-competition would move everyone after them.
        raise _refuse(
            UNDO_WHILE_RUNNING, error_class=Refused, code="undo_while_running", player=entry.player
        )
    if not entry.checked_in_at:
        raise _refuse(
            NOT_CHECKED_IN, error_class=Refused, code="not_checked_in", player=entry.player
        )
    entry.checked_in_at = None
    entry.save(update_fields=["checked_in_at"])
    competition_touch(entry.competition)
    return entry


def _format_runs_withdrawals(competition: Competition) -> bool:
    return competition.status == Competition.Status.RUNNING and bool(
        get_format(competition.format).running_withdraw_url
    )


@transaction.atomic
def entry_withdraw(*, entry: Entry) -> Entry:
    entry = _locked_entry(entry)
    _ensure_open(entry.competition)
    if _format_runs_withdrawals(entry.competition):
        raise _refuse(
            WITHDRAW_THROUGH_FORMAT,
            error_class=Refused,
            code="withdraw_through_format",
            competition=entry.competition.name,
            player=entry.player,
        )
    if entry.withdrawn_at:
        raise _refuse(
            ALREADY_WITHDRAWN, error_class=Refused, code="already_withdrawn", player=entry.player
        )
    entry.withdrawn_at = timezone.now()
    entry.save(update_fields=["withdrawn_at"])
    competition_touch(entry.competition)
    return entry


@transaction.atomic
def entry_reinstate(*, entry: Entry) -> Entry:
    entry = _locked_entry(entry)
    _ensure_open(entry.competition)
    if _format_runs_withdrawals(entry.competition):
        raise _refuse(
            REINSTATE_WHILE_RUNNING,
            error_class=Refused,
            code="reinstate_while_running",
            competition=entry.competition.name,
            player=entry.player,
        )
    if not entry.withdrawn_at:
        raise _refuse(NOT_WITHDRAWN, error_class=Refused, code="not_withdrawn", player=entry.player)
    entry.withdrawn_at = None
    entry.save(update_fields=["withdrawn_at"])
    competition_touch(entry.competition)
    return entry


@dataclass(frozen=True)
class CsvProblem:
    line: int
    reason: str


class CsvImportError(Invalid):
    default_code = "bad_csv"

    def __init__(self, problems: list[CsvProblem]):
        self.problems = problems
        super().__init__([_("Line %(line)s: %(reason)s") % p.__dict__ for p in problems])


@dataclass(frozen=True)
class CsvImportResult:
    created: int
    reused: int


def players_import_csv(
    *, competition: Competition, data: bytes, submission: str = ""
) -> CsvImportResult:
    """Register every player in a CSV file, or nobody:
    ``events.exchange.players.players_import_csv``
    (the desk's import page previews first: ``events.exchange.players.import_plan``)."""
    from events.exchange import players as imports  # builds on this module

    return imports.players_import_csv(competition=competition, data=data, submission=submission)
