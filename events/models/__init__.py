"""The records every format shares: players, events, competitions, entries, sessions,
rounds, games and seats.

Per-row facts live here; anything spanning rows lives in services (writes) and
selectors (reads). Format apps add their settings (in ``Competition.settings``,
validated by the format's settings form) and their own detail tables.
"""

from __future__ import annotations

import unicodedata
import zoneinfo
from functools import cache
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from events.formats import clean_settings, format_choices, get_format, settings_errors

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

DEFAULT_RATING = 1500
MAX_RATING = 4000

# Letters that Unicode does not decompose into a base letter plus a mark.
_FOLD = str.maketrans(
    {"ø": "o", "æ": "ae", "œ": "oe", "ß": "ss", "ł": "l", "đ": "d", "ð": "d", "þ": "th"}
)


def fold(text: str) -> str:
    """Case- and accent-insensitive form of a text, for searching: 'Õie Sööt' -> 'oie soot'."""
    decomposed = unicodedata.normalize("NFKD", text.casefold().translate(_FOLD))
    kept = (c for c in decomposed if not unicodedata.combining(c) and c.isprintable())
    return " ".join("".join(kept).split())


PERSON_KEY_LENGTH = 400


def _key_part(text: str) -> str:
    # A backslash-escaped "|" keeps "Anna|Berg" (no club) apart from "Anna" of club "Berg".
    return fold(text).replace("\\", "\\\\").replace("|", "\\|")


def person_key(name: str, club: str) -> str:
    """Who a register row is: the folded name, "|", the folded club ('anna berg|uppsala').

    Stored on every Player (``Player.person_key``) under a unique constraint with
    ``homonym``, so two desks (two servers, one database) can never both add the same person.
    Cut at PERSON_KEY_LENGTH characters: only names no person has could meet that way.
    """
    return f"{_key_part(name)}|{_key_part(club)}"[:PERSON_KEY_LENGTH]


@cache
def time_zone_choices() -> list[tuple[str, str]]:
    return [(name, name) for name in sorted(zoneinfo.available_timezones())]


def validate_time_zone(value: str) -> None:
    if value not in zoneinfo.available_timezones():
        raise ValidationError(_("%(value)s is not a known time zone."), params={"value": value})


class Player(models.Model):
    """A person, across events and years."""

    name = models.CharField(_("name"), max_length=100)
    club = models.CharField(_("club"), max_length=100, blank=True)
    email = models.EmailField(_("e-mail"), blank=True)
    rating = models.PositiveIntegerField(
        _("rating"), default=DEFAULT_RATING, validators=[MaxValueValidator(MAX_RATING)]
    )
    rated_games = models.PositiveIntegerField(_("rated games"), default=0)
    # Derived from name and club on every save; what the desk search matches against.
    search_text = models.CharField(max_length=201, editable=False, db_index=True)
    # One person, one row: derived from name and club on every save (see ``person_key``) and
    # unique together with ``homonym``. Two different people with the same name in the same
    # club are told apart by an admin giving the second one homonym 1 (the third 2, ...); the
    # desk and the CSV import never set it, so they can never create a second record.
    person_key = models.CharField(max_length=PERSON_KEY_LENGTH, editable=False)
    # Blank: the language of the event the message or page is about (issue 11).
    language = models.CharField(
        _("preferred language"),
        max_length=8,
        choices=settings.LANGUAGES,
        blank=True,
        help_text=_("For e-mails and private pages. Empty: the event's language."),
    )
    homonym = models.PositiveSmallIntegerField(
        _("homonym number"),
        default=0,
        blank=True,
        help_text=_(
            "0 for almost everyone. Only for a different person with the same name and club "
            "as a player already in the register: give them 1 (then 2, ...)."
        ),
    )
    created_at = models.DateTimeField(auto_now_add=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["name", "club", "pk"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.CheckConstraint(
                condition=Q(rating__lte=MAX_RATING),
                name="player_rating_in_range",
                violation_error_message=_("A rating is at most 4000."),
            ),
            models.CheckConstraint(
                condition=~Q(name=""),
                name="player_name_not_empty",
                violation_error_message=_("A player needs a name."),
            ),
            models.CheckConstraint(
                condition=Q(language__in=["", *(code for code, _name in settings.LANGUAGES)]),
                name="player_language_known",
                violation_error_message=_("Choose one of the site's languages, or none."),
            ),
            models.UniqueConstraint(
                fields=["person_key", "homonym"],
                name="player_one_per_person",
                violation_error_message=_(
                    "A player with this name and club is already in the register; if this is "
                    "a different person, give them another homonym number."
                ),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.club})" if self.club else self.name

    def save(self, *args, **kwargs) -> None:
        # The search column must never drift from the name, whoever saves the row.
        self.search_text = fold(f"{self.name} {self.club}")
        self.person_key = person_key(self.name, self.club)
        if self.homonym is None:  # left empty in the admin: the usual case
            self.homonym = 0
        if kwargs.get("update_fields") is not None:
            kwargs["update_fields"] = {*kwargs["update_fields"], "search_text", "person_key"}
        super().save(*args, **kwargs)


class Event(models.Model):
    """A gathering with its organisers, e.g. "LinCon 2026"."""

    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("address"), max_length=60, unique=True)
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    info = models.CharField(
        _("information"),
        max_length=300,
        blank=True,
        help_text=_("Shown on the public page, e.g. where registration takes place."),
    )
    starts_on = models.DateField(_("starts on"))
    ends_on = models.DateField(_("ends on"))
    time_zone = models.CharField(
        _("time zone"), max_length=64, default="Europe/Stockholm", validators=[validate_time_zone]
    )
    # What a visitor without a choice of their own (no cookie, no browser language of ours)
    # reads on the event's pages, and the e-mails of players without a preferred language.
    language = models.CharField(
        _("language"),
        max_length=8,
        choices=settings.LANGUAGES,
        default=settings.LANGUAGE_CODE,
        help_text=_("For visitors whose browser asks for none of the site's languages."),
    )
    is_public = models.BooleanField(
        _("listed publicly"),
        default=True,
        help_text=_("Unlisted events are reachable by their address but not shown in the list."),
    )
    # Everyone with a role at this event (owner, organiser or scorekeeper): see ``EventRole``.
    # ``event.organisers.add(user)`` gives the role "organiser" (the through model's default).
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        through="events.EventRole",
        related_name="organised_events",
        verbose_name=_("organisers"),
    )
    # Bumped by every write to the event or anything in it; public pages key ETags on it.
    version = models.PositiveBigIntegerField(default=1, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    # Who got or lost a role, and when, is in EventRole's own history.
    history = HistoricalRecords(excluded_fields=["version"])

    class Meta:
        ordering = ["-starts_on", "name"]
        verbose_name = _("event")
        verbose_name_plural = _("events")
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_on__gte=F("starts_on")),
                name="event_ends_after_start",
                violation_error_message=_("An event cannot end before it starts."),
            ),
            models.CheckConstraint(
                condition=Q(language__in=[code for code, _name in settings.LANGUAGES]),
                name="event_language_known",
                violation_error_message=_("Choose one of the site's languages."),
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        if self.starts_on and self.ends_on and self.ends_on < self.starts_on:
            raise ValidationError({"ends_on": _("An event cannot end before it starts.")})

    def get_absolute_url(self) -> str:
        return reverse("events:event", args=[self.slug])

    def role_of(self, user) -> str | None:
        """``user``'s role at this event (an ``EventRole.Role`` value), or None (one query).
        A superuser counts as an owner of every event."""
        if not user.is_authenticated:
            return None
        if user.is_superuser:
            return EventRole.Role.OWNER
        return (
            EventRole.objects.filter(event=self, user=user).values_list("role", flat=True).first()
        )

    def is_organised_by(self, user) -> bool:
        """Whether ``user`` may see this event's desk and change it (owner or organiser; a
        scorekeeper only enters and corrects results)."""
        return self.role_of(user) in EventRole.MANAGERS


class EventRole(models.Model):
    """Who runs an event, and how far (the through table of ``Event.organisers``).

    owner: everything an organiser can, and adds or removes people (every event keeps one);
    organiser: the whole desk (settings, registrations, check-in, withdrawals, edits, results);
    scorekeeper: enters and corrects results only.
    """

    class Role(models.TextChoices):
        OWNER = "owner", _("owner")
        ORGANISER = "organiser", _("organiser")
        SCOREKEEPER = "scorekeeper", _("scorekeeper")

    MANAGERS = frozenset({Role.OWNER, Role.ORGANISER})

    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="roles", verbose_name=_("event")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="event_roles",
        verbose_name=_("user"),
    )
    role = models.CharField(_("role"), max_length=20, choices=Role.choices, default=Role.ORGANISER)

    history = HistoricalRecords()

    class Meta:
        ordering = ["event", "role", "user__username"]
        verbose_name = _("event role")
        verbose_name_plural = _("event roles")
        constraints = [
            models.UniqueConstraint(fields=["event", "user"], name="eventrole_one_per_user"),
            models.CheckConstraint(
                condition=Q(role__in=["owner", "organiser", "scorekeeper"]),
                name="eventrole_role_known",
                violation_error_message=_("Unknown role."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.get_role_display()}"


class CompetitionStatus(models.TextChoices):
    REGISTRATION = "registration", _("Registration open")
    RUNNING = "running", _("Running")
    FINISHED = "finished", _("Finished")


class Competition(models.Model):
    """One tournament of one format inside an event."""

    Status = CompetitionStatus

    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="competitions", verbose_name=_("event")
    )
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("address"), max_length=60)
    format = models.CharField(_("format"), max_length=20, choices=format_choices)
    settings = models.JSONField(_("settings"), default=dict, blank=True)
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.REGISTRATION
    )
    # Bumped by every write to the competition or anything in it (entries, games, seats).
    version = models.PositiveBigIntegerField(default=1, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    history = HistoricalRecords(excluded_fields=["version"])

    class Meta:
        ordering = ["event", "created_at", "pk"]
        verbose_name = _("competition")
        verbose_name_plural = _("competitions")
        constraints = [
            models.UniqueConstraint(fields=["event", "slug"], name="competition_slug_unique"),
            models.CheckConstraint(
                condition=Q(status__in=CompetitionStatus.values),
                name="competition_status_known",
                violation_error_message=_("Unknown competition status."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event.name}: {self.name}"

    def clean(self) -> None:
        errors = settings_errors(self.format, self.settings)
        if errors:
            raise ValidationError({"settings": errors})
        # Store what the form cleaned (3, not "3"; defaults filled in), as the desk does.
        self.settings = clean_settings(self.format, self.settings)

    def get_absolute_url(self) -> str:
        return reverse("events:competition", args=[self.event.slug, self.slug])

    def get_desk_url(self) -> str:
        return reverse("events:competition_desk", args=[self.event.slug, self.slug])

    @property
    def is_finished(self) -> bool:
        return self.status == self.Status.FINISHED

    @property
    def game_format(self):  # -> events.formats.GameFormat
        return get_format(self.format)

    @property
    def options(self):  # -> the format's settings dataclass
        """The typed settings (``competition.options.games``), defaults filled in."""
        return self.game_format.read_settings(self.settings)


class Entry(models.Model):
    """A player in a competition."""

    competition = models.ForeignKey(
        Competition, on_delete=models.CASCADE, related_name="entries", verbose_name=_("competition")
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="entries", verbose_name=_("player")
    )
    registered_at = models.DateTimeField(_("registered at"), auto_now_add=True)
    checked_in_at = models.DateTimeField(_("checked in at"), null=True, blank=True)
    withdrawn_at = models.DateTimeField(_("withdrawn at"), null=True, blank=True)
    # The player's number in this competition (1, 2, ... in order of registration): typed at
    # the desk to check them in, shown on the desk and on the player's page.
    number = models.PositiveIntegerField(_("player number"), null=True, blank=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["competition", "player__name", "pk"]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(fields=["competition", "player"], name="entry_one_per_player"),
            models.UniqueConstraint(fields=["competition", "number"], name="entry_number_unique"),
        ]

    def __str__(self) -> str:
        # The competition is named when it was fetched with the entry (every admin list selects
        # it); a bare entry does not cost a query per row to print.
        if Entry.competition.is_cached(self):
            return f"{self.player} · {self.competition.name}"
        return str(self.player)

    def save(self, *args, **kwargs) -> None:
        # Every entry has a number, whoever creates it (the desk's services lock the
        # competition first, so two desks never pick the same one; the constraint stays).
        if self.number is None and self.competition_id is not None:
            self.number = entry_next_number(self.competition_id)
            if kwargs.get("update_fields") is not None:
                kwargs["update_fields"] = {*kwargs["update_fields"], "number"}
        super().save(*args, **kwargs)

    @property
    def is_checked_in(self) -> bool:
        return self.checked_in_at is not None and self.withdrawn_at is None

    @property
    def is_withdrawn(self) -> bool:
        return self.withdrawn_at is not None

    @property
    def status_label(self) -> StrOrPromise:
        if self.withdrawn_at:
            return _("withdrawn")
        if self.checked_in_at:
            return _("checked in")
        return _("registered")


def entry_next_number(competition_id: int) -> int:
    """The next player number of a competition: one more than the highest."""
    highest = Entry.objects.filter(competition_id=competition_id).aggregate(
        highest=models.Max("number")
    )["highest"]
    return (highest or 0) + 1


class Session(models.Model):
    """A block of play: a Blokus qualifying session or final, a sjoelen series, a table."""

    class Kind(models.TextChoices):
        QUALIFYING = "qualifying", _("Qualifying session")
        FINAL = "final", _("Final")
        SERIES = "series", _("Series")
        TABLE = "table", _("Table")
        TIEBREAK = "tiebreak", _("Tiebreak")

    competition = models.ForeignKey(
        Competition,
        on_delete=models.CASCADE,
        related_name="sessions",
        verbose_name=_("competition"),
    )
    number = models.PositiveSmallIntegerField(_("number"))
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    name = models.CharField(_("name"), max_length=120, blank=True)
    starts_at = models.DateTimeField(_("starts at"), null=True, blank=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["competition", "number"]
        verbose_name = _("session")
        verbose_name_plural = _("sessions")
        constraints = [
            models.UniqueConstraint(fields=["competition", "number"], name="session_number_unique"),
            models.CheckConstraint(
                condition=Q(number__gte=1),
                name="session_number_positive",
                violation_error_message=_("Sessions are numbered from 1."),
            ),
        ]

    def __str__(self) -> str:
        return self.name or f"{self.get_kind_display()} {self.number}"


class Round(models.Model):
    """One set of simultaneous games in a session."""

    session = models.ForeignKey(
        Session, on_delete=models.CASCADE, related_name="rounds", verbose_name=_("session")
    )
    number = models.PositiveSmallIntegerField(_("number"))
    # The seed of the draw that made this round, so that the draw can be shown again and audited.
    seed = models.BigIntegerField(_("draw seed"), null=True, blank=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    # The round clock's pauses and changes (``blokus.services.clock``): time left is the round's
    # length + extra_seconds - (now - started_at - paused_seconds - the pause running since
    # paused_at), never below zero.
    paused_at = models.DateTimeField(_("clock paused at"), null=True, blank=True)
    paused_seconds = models.PositiveIntegerField(_("seconds paused"), default=0)
    extra_seconds = models.IntegerField(_("seconds added to the clock"), default=0)

    history = HistoricalRecords()

    class Meta:
        ordering = ["session", "number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="round_number_unique"),
            models.CheckConstraint(
                condition=Q(number__gte=1),
                name="round_number_positive",
                violation_error_message=_("Rounds are numbered from 1."),
            ),
            models.CheckConstraint(
                condition=Q(paused_at__isnull=True)
                | Q(started_at__isnull=False, paused_at__gte=F("started_at")),
                name="round_paused_after_start",
                violation_error_message=_("A clock can only be paused after it was started."),
            ),
            models.CheckConstraint(
                condition=Q(paused_seconds__gte=0),
                name="round_paused_seconds_not_negative",
                violation_error_message=_("A clock cannot have been paused for less than nothing."),
            ),
            models.CheckConstraint(
                condition=Q(extra_seconds__gte=-86400, extra_seconds__lte=86400),
                name="round_extra_seconds_within_a_day",
                violation_error_message=_("A round's clock changes by at most a day."),
            ),
        ]

    def __str__(self) -> str:
        return _("Round %(number)s") % {"number": self.number}


class GameStatus(models.TextChoices):
    PENDING = "pending", _("Not played yet")
    PLAYING = "playing", _("Playing")
    FINISHED = "finished", _("Finished")


class Game(models.Model):
    """One game (a table or board) in a round."""

    Status = GameStatus

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="games", verbose_name=_("round")
    )
    number = models.PositiveSmallIntegerField(_("table"))
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.PENDING
    )
    # Incremented by every result write; a form carries the revision it was drawn from,
    # so that an edit made from a stale page is refused instead of overwriting a newer one.
    revision = models.PositiveIntegerField(default=0, editable=False)
    updated_at = models.DateTimeField(auto_now=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["round", "number"]
        verbose_name = _("game")
        verbose_name_plural = _("games")
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="game_number_unique"),
            models.CheckConstraint(
                condition=Q(number__gte=1),
                name="game_number_positive",
                violation_error_message=_("Tables are numbered from 1."),
            ),
            models.CheckConstraint(
                condition=Q(status__in=GameStatus.values),
                name="game_status_known",
                violation_error_message=_("Unknown game status."),
            ),
        ]

    def __str__(self) -> str:
        return _("Table %(number)s") % {"number": self.number}

    @property
    def is_finished(self) -> bool:
        return self.status == self.Status.FINISHED


class Seat(models.Model):
    """A player's place in a game, with the score and the tournament points it earned."""

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="seats", verbose_name=_("game")
    )
    entry = models.ForeignKey(
        Entry, on_delete=models.PROTECT, related_name="seats", verbose_name=_("entry")
    )
    position = models.PositiveSmallIntegerField(
        _("position"), validators=[MinValueValidator(1)], help_text=_("Playing order, from 1.")
    )
    colour = models.CharField(_("colour"), max_length=20, blank=True)
    score = models.IntegerField(_("score"), null=True, blank=True)
    points = models.DecimalField(_("points"), max_digits=6, decimal_places=2, null=True, blank=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["game", "position"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["game", "entry"], name="seat_one_per_player"),
            models.UniqueConstraint(fields=["game", "position"], name="seat_position_unique"),
            models.CheckConstraint(
                condition=Q(position__gte=1),
                name="seat_position_positive",
                violation_error_message=_("Seats are numbered from 1."),
            ),
            models.CheckConstraint(
                condition=Q(points__isnull=True) | Q(points__gte=0),
                name="seat_points_not_negative",
                violation_error_message=_("Points cannot be negative."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} #{self.position}"

    def clean(self) -> None:
        if self.game_id and self.entry_id:
            game_competition = (
                Game.objects.filter(pk=self.game_id)
                .values_list("round__session__competition_id", flat=True)
                .first()
            )
            entry_competition = (
                Entry.objects.filter(pk=self.entry_id)
                .values_list("competition_id", flat=True)
                .first()
            )
            if game_competition != entry_competition:
                raise ValidationError(
                    {"entry": _("The player is not entered in this game's competition.")}
                )


class Correction(models.Model):
    """A result changed after it was first entered: the trail players and the desk read.

    The format that made the change writes it (``events.services.correction_record``) in the
    same transaction as the change. ``item``, ``before`` and ``after`` are short texts in the
    format's words ("game 3", "112", "121"); ``payload`` is what the format needs to undo it.
    Who corrected is shown on the desk only, never on public pages.
    """

    class Source(models.TextChoices):
        DESK = "desk", _("desk")
        ADMIN = "admin", _("admin")
        UNDO = "undo", _("undo")

    competition = models.ForeignKey(
        Competition,
        on_delete=models.CASCADE,
        related_name="corrections",
        verbose_name=_("competition"),
    )
    entry = models.ForeignKey(
        Entry,
        on_delete=models.CASCADE,
        related_name="corrections",
        null=True,
        blank=True,
        verbose_name=_("player"),
    )
    item = models.CharField(_("what"), max_length=120)
    before = models.CharField(_("before"), max_length=120, blank=True)
    after = models.CharField(_("after"), max_length=120, blank=True)
    note = models.CharField(_("note"), max_length=300, blank=True)
    source = models.CharField(_("source"), max_length=10, choices=Source.choices)
    corrected_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("corrected by"),
    )
    payload = models.JSONField(_("undo data"), default=dict, blank=True)
    reverts = models.OneToOneField(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="reverted_by",
        verbose_name=_("undoes"),
    )
    created_at = models.DateTimeField(_("corrected at"), auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("correction")
        verbose_name_plural = _("corrections")
        indexes = [models.Index(fields=["competition", "-created_at"], name="correction_recent")]
        constraints = [
            models.CheckConstraint(
                condition=Q(source__in=["desk", "admin", "undo"]),
                name="correction_source_known",
                violation_error_message=_("Unknown correction source."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.item}: {self.before} → {self.after}"


# The words for a database refusal, by constraint name, for a save that got past the forms
# (a race, two seats swapping places): never show a constraint's name to a person.
_UNIQUE_MESSAGES = {
    "competition_slug_unique": _("Another competition of this event has this address."),
    "eventrole_one_per_user": _("This person already has a role at this event."),
    "player_one_per_person": _(
        "A player with this name and club is already in the register; if this is a different "
        "person, give them another homonym number."
    ),
    "entry_one_per_player": _("The player is already entered in this competition."),
    "entry_number_unique": _("Another player of this competition has this number."),
    "session_number_unique": _("Another session of this competition has this number."),
    "round_number_unique": _("Another round of this session has this number."),
    "game_number_unique": _("Another game of this round has this table number."),
    "seat_one_per_player": _("The player already has a seat in this game."),
    "seat_position_unique": _("Another seat of this game has this position."),
}


def constraint_message(error_text: str) -> str:
    """A readable reason for a database error text naming one of our constraints (PostgreSQL
    names it; SQLite names the columns of a unique one); a general one otherwise."""
    from django.apps import apps

    for model in apps.get_models():
        table = model._meta.db_table
        for constraint in model._meta.constraints:
            fields = getattr(constraint, "fields", ()) or ()
            columns = ", ".join(
                f"{table}.{getattr(model._meta.get_field(f), 'column', f)}" for f in fields
            )
            if constraint.name not in error_text and not (columns and columns in error_text):
                continue
            known = _UNIQUE_MESSAGES.get(constraint.name)
            if known is not None:
                return str(known)
            message = str(getattr(constraint, "violation_error_message", "") or "")
            if message and "%(name)s" not in message:
                return message
    return str(_("it conflicts with data stored meanwhile; please check the values and retry."))


class SubmissionToken(models.Model):
    """A form's one-time token, recorded by the service that acted on it, in the same
    transaction: a second post of the same form (a double click, a resent page) finds it and
    creates nothing. ``url`` is where the first post led. Rows older than a day are removed."""

    token = models.CharField(max_length=64, unique=True)
    url = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    def __str__(self) -> str:
        return self.token


class AttemptCounter(models.Model):
    """Attempts counted against a key (a table's code, a board's code) in a fixed window, in the
    database so that every server process counts the same attempts and the count holds with the
    cache down (events.services.attempts)."""

    key = models.CharField(max_length=200, unique=True)
    count = models.PositiveIntegerField(default=0)
    expires_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"{self.key}: {self.count}"


class ProposalStatus(models.TextChoices):
    PROPOSED = "proposed", _("proposed")
    CONFLICT = "conflict", _("conflict")
    CONFIRMED = "confirmed", _("confirmed")
    ACCEPTED = "accepted", _("accepted")
    REJECTED = "rejected", _("rejected")
    WITHDRAWN = "withdrawn", _("replaced by its player")


PROPOSALS_OPEN = ("proposed", "conflict", "confirmed")


class ResultProposal(models.Model):
    """A game's result as a player entered it on their phone (issue 16; events/services/proposals.py
    writes every change). It is applied through the format's own result service once a second
    player of the game confirms it or the desk accepts it; ``revision`` counts its changes so
    that a decision taken on a stale page is refused."""

    Status = ProposalStatus

    competition = models.ForeignKey(
        Competition,
        on_delete=models.CASCADE,
        related_name="result_proposals",
        verbose_name=_("competition"),
    )
    game = models.ForeignKey(
        Game,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="result_proposals",
        verbose_name=_("game"),
    )
    entry = models.ForeignKey(
        Entry,
        on_delete=models.CASCADE,
        related_name="result_proposals",
        verbose_name=_("proposed by"),
    )
    payload = models.JSONField(_("result"), default=dict)
    status = models.CharField(
        _("status"), max_length=12, choices=ProposalStatus.choices, default=ProposalStatus.PROPOSED
    )
    confirmed_by = models.ForeignKey(
        Entry,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("confirmed by"),
    )
    revision = models.PositiveIntegerField(default=0, editable=False)
    created_at = models.DateTimeField(_("proposed at"), auto_now_add=True)
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("decided by"),
    )
    note = models.CharField(_("note"), max_length=200, blank=True)
    submission = models.CharField(_("submission key"), max_length=64, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("result proposal")
        verbose_name_plural = _("result proposals")
        indexes = [models.Index(fields=["competition", "status"], name="proposal_by_status")]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=ProposalStatus.values),
                name="proposal_status_known",
                violation_error_message=_("Unknown proposal status."),
            ),
            models.UniqueConstraint(
                fields=["game", "entry"],
                condition=Q(status__in=PROPOSALS_OPEN),
                name="proposal_one_open_per_player",
                violation_error_message=_(
                    "This player already has a result waiting for this game."
                ),
            ),
            models.UniqueConstraint(
                fields=["game"],
                condition=Q(status="accepted"),
                name="proposal_one_accepted_per_game",
                violation_error_message=_("A result of this game was already accepted."),
            ),
            models.UniqueConstraint(
                fields=["submission"],
                condition=~Q(submission=""),
                name="proposal_submission_unique",
                violation_error_message=_("This result was already received."),
            ),
            models.CheckConstraint(
                condition=Q(confirmed_by__isnull=True) | ~Q(confirmed_by=F("entry")),
                name="proposal_confirmed_by_another",
                violation_error_message=_("A second player confirms a result, not its proposer."),
            ),
            models.CheckConstraint(
                condition=Q(status__in=PROPOSALS_OPEN, decided_at__isnull=True)
                | (~Q(status__in=PROPOSALS_OPEN) & Q(decided_at__isnull=False)),
                name="proposal_decided_when_closed",
                violation_error_message=_("A decided proposal has a decision time."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game or self.competition} · {self.entry} · {self.get_status_display()}"

    @property
    def is_open(self) -> bool:
        return self.status in PROPOSALS_OPEN
