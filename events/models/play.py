"""What is played: sessions, rounds, games and the seats of players at them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

if TYPE_CHECKING:
    pass
from events.models.events import Competition, Entry


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
    # Online sign-up: the seats of this session when players choose one (a Blokus
    # qualifying session); empty: only the competition's cap counts.
    sign_up_cap = models.PositiveIntegerField(
        _("seats at online sign-up"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(10_000)],
        help_text=_("Empty: only the competition's seats count."),
    )

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
            models.CheckConstraint(
                condition=Q(sign_up_cap__isnull=True)
                | Q(sign_up_cap__gte=1, sign_up_cap__lte=10_000),
                name="session_sign_up_cap_range",
                violation_error_message=_("Seats: 1 to 10,000."),
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
