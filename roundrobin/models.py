"""What the correspondence round robin adds to the shared events records.

A table is a ``Session`` of kind TABLE (number = table number, ``starts_at`` = the competition's
start, which is also the clock start of every game). Its regular games are round 1 of that
session, all created at once; every tiebreak stage (a decider, a mini round robin, or a replay)
is one more round of the same session, round 2 and up, described by a ``TiebreakStage``. A
``Seat`` at position 1 has White (moves first), position 2 Black; ``Seat.points`` holds the game
points (1, ½, 0), also for tiebreak games, which never count towards table points.

Beside them: a rating snapshot per entry taken at the start (R-RR-26), a detail row per game
(how it ended, struck, rated, when), the rating change log, withdrawals, and the clock: each
game's turns and moves, players' private links and their result reports.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from events.models import MAX_RATING, Competition, Entry, Game, Player, Round, Seat, Session
from roundrobin import rules

BAD_SEAT_POINTS = _("The seats' points are not a result: 1-0, ½-½, 0-1 or 0-0 (double forfeit).")
BAD_REPORT = _("Report 1-0, 1/2-1/2 or 0-1.")


class Ending(models.TextChoices):
    """How a game ended; empty while it is in progress."""

    OPEN = "", _("In progress")
    PLAYED = rules.PLAYED_OUT, _("Played")
    FIRST_LOST_ON_TIME = rules.FIRST_LOST_ON_TIME, _("White lost on time")
    SECOND_LOST_ON_TIME = rules.SECOND_LOST_ON_TIME, _("Black lost on time")
    DOUBLE_FORFEIT = rules.DOUBLE_FORFEIT, _("Double forfeit")
    FORFEIT = rules.WITHDRAWAL_FORFEIT, _("Forfeit (withdrawal)")
    CANCELLED = "cancelled", _("Cancelled (withdrawal, or a tiebreak no longer needed)")


class RatingSnapshot(models.Model):
    """An entry's rating when the tables were drawn (R-RR-26): what the split used."""

    entry = models.OneToOneField(
        Entry, on_delete=models.CASCADE, related_name="rr_snapshot", verbose_name=_("entry")
    )
    rating = models.PositiveIntegerField(_("rating"))
    rated_games = models.PositiveIntegerField(_("rated games"))
    provisional = models.BooleanField(_("provisional"))
    seed = models.PositiveSmallIntegerField(_("seed"), help_text=_("1 = strongest."))
    table = models.PositiveSmallIntegerField(_("table"))
    taken_at = models.DateTimeField(_("taken at"))

    history = HistoricalRecords()

    class Meta:
        ordering = ["entry__competition", "seed"]
        verbose_name = _("rating snapshot")
        verbose_name_plural = _("rating snapshots")
        constraints = [
            models.CheckConstraint(
                condition=Q(rating__lte=MAX_RATING), name="rr_snapshot_rating_in_range"
            ),
            models.CheckConstraint(condition=Q(seed__gte=1), name="rr_snapshot_seed_positive"),
            models.CheckConstraint(condition=Q(table__gte=1), name="rr_snapshot_table_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.entry_id}: {self.rating}"

    def clean(self) -> None:
        if self.rated_games is not None and self.provisional is not None:
            if self.provisional != rules.is_provisional(self.rated_games):
                raise ValidationError(
                    {"provisional": _("Provisional means fewer than 30 rated games.")}
                )


class TiebreakStage(models.Model):
    """A round of a table's session that plays off a podium tie (RR¶8, RR¶9)."""

    class Kind(models.TextChoices):
        DECIDER = rules.DECIDER, _("Decider")
        MINI = rules.MINI_ROUND_ROBIN, _("Mini round robin")

    round = models.OneToOneField(
        Round, on_delete=models.CASCADE, related_name="rr_stage", verbose_name=_("round")
    )
    table = models.ForeignKey(
        Session, on_delete=models.CASCADE, related_name="rr_stages", verbose_name=_("table")
    )
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    attempt = models.PositiveSmallIntegerField(_("attempt"), help_text=_("2 = the replay."))
    place = models.PositiveSmallIntegerField(_("place"), help_text=_("The best place at stake."))
    # Sorted entry ids joined by commas: the stage's identity with ``attempt`` (rules N-RR-08).
    players_key = models.CharField(_("players"), max_length=200)

    history = HistoricalRecords()

    class Meta:
        ordering = ["table", "round__number"]
        verbose_name = _("tiebreak stage")
        verbose_name_plural = _("tiebreak stages")
        constraints = [
            models.UniqueConstraint(
                fields=["table", "players_key", "attempt"], name="rr_stage_unique"
            ),
            models.CheckConstraint(
                condition=Q(attempt__gte=1, attempt__lte=rules.TIEBREAK_ATTEMPTS),
                name="rr_stage_attempt_range",
            ),
            models.CheckConstraint(
                condition=Q(place__gte=1, place__lte=rules.PODIUM_PLACES),
                name="rr_stage_place_podium",
            ),
            models.CheckConstraint(
                condition=Q(kind__in=[rules.DECIDER, rules.MINI_ROUND_ROBIN]),
                name="rr_stage_kind_known",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table}: {self.get_kind_display()} #{self.attempt}"

    @staticmethod
    def key_of(entry_ids) -> str:
        return ",".join(str(pk) for pk in sorted(entry_ids))

    @property
    def entry_ids(self) -> frozenset[int]:
        return frozenset(int(pk) for pk in self.players_key.split(",") if pk)


class GameDetail(models.Model):
    """How a round-robin game ended, whether it is struck and whether it is rated."""

    Ending = Ending

    game = models.OneToOneField(
        Game,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="rr_detail",
        verbose_name=_("game"),
    )
    ending = models.CharField(
        _("ending"), max_length=20, choices=Ending.choices, blank=True, default=Ending.OPEN
    )
    struck = models.BooleanField(
        _("struck"), default=False, help_text=_("Removed from the table standings (withdrawal).")
    )
    rated = models.BooleanField(_("rated"), default=False)
    ended_at = models.DateTimeField(_("ended at"), null=True, blank=True)

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("game detail")
        verbose_name_plural = _("game details")
        constraints = [
            models.CheckConstraint(
                condition=Q(ending__in=Ending.values), name="rr_detail_ending_known"
            ),
            models.CheckConstraint(
                condition=Q(ending="", ended_at__isnull=True)
                | (~Q(ending="") & Q(ended_at__isnull=False)),
                name="rr_detail_ended_iff_ending",
            ),
            # A-RR-16: double forfeits, withdrawal forfeits and cancelled games are unrated.
            models.CheckConstraint(
                condition=Q(rated=False)
                | Q(
                    ending__in=[
                        rules.PLAYED_OUT,
                        rules.FIRST_LOST_ON_TIME,
                        rules.SECOND_LOST_ON_TIME,
                    ]
                ),
                name="rr_detail_rated_only_when_played",
            ),
        ]
        indexes = [
            # The rating recomputation reads a competition's finished games in finish order.
            models.Index(fields=["ended_at"], name="rr_detail_ended_at"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}: {self.get_ending_display()}"

    @property
    def is_over(self) -> bool:
        return self.ending != Ending.OPEN

    @property
    def has_result(self) -> bool:
        return self.ending not in (Ending.OPEN, Ending.CANCELLED)

    def clean(self) -> None:
        self._check_seat_points()
        if self.rated and self.ending and self.ending != Ending.CANCELLED:
            if not rules.is_rated(self.ending):
                raise ValidationError({"rated": _("This kind of ending is never rated.")})
        if self.rated and self.ending == Ending.CANCELLED:
            raise ValidationError({"rated": _("A cancelled game is not rated.")})

    def _check_seat_points(self) -> None:
        """A game with a result holds a round-robin result in its seats (``rules``)."""
        if not self.has_result or not self.game_id:
            return
        points = list(
            Seat.objects.filter(game_id=self.game_id)
            .order_by("position")
            .values_list("points", flat=True)
        )
        if len(points) != 2:
            return
        first, second = points
        if first is None or second is None:
            return
        try:
            rules.check_result(first, second)
        except rules.InvalidResult:
            raise ValidationError(BAD_SEAT_POINTS, code="bad_result") from None


class RatingChange(models.Model):
    """One player's rating change from one rated game (§5), in the order games finished."""

    competition = models.ForeignKey(
        Competition,
        on_delete=models.CASCADE,
        related_name="rr_rating_changes",
        verbose_name=_("competition"),
    )
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="rr_rating_changes", verbose_name=_("game")
    )
    entry = models.ForeignKey(
        Entry, on_delete=models.CASCADE, related_name="rr_rating_changes", verbose_name=_("entry")
    )
    player = models.ForeignKey(
        Player,
        on_delete=models.CASCADE,
        related_name="rr_rating_changes",
        verbose_name=_("player"),
    )
    opponent_rating = models.PositiveIntegerField(_("opponent's rating"))
    score = models.DecimalField(_("score"), max_digits=2, decimal_places=1)
    before = models.PositiveIntegerField(_("before"))
    after = models.PositiveIntegerField(_("after"))
    change = models.IntegerField(_("change"))
    k = models.PositiveSmallIntegerField(_("K"))
    at = models.DateTimeField(_("at"))

    class Meta:
        ordering = ["at", "game", "pk"]
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        constraints = [
            models.UniqueConstraint(fields=["game", "entry"], name="rr_change_once_per_game"),
            models.CheckConstraint(
                condition=Q(after=F("before") + F("change")), name="rr_change_adds_up"
            ),
            models.CheckConstraint(
                condition=Q(k__in=[rules.K_PROVISIONAL, rules.K_REGULAR, rules.K_MASTER]),
                name="rr_change_k_fide",
            ),
            models.CheckConstraint(
                condition=Q(score__in=[0, 0.5, 1]), name="rr_change_score_valid"
            ),
        ]
        indexes = [
            # A player's rating history, newest last.
            models.Index(fields=["player", "at"], name="rr_change_player_at"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} {self.change:+d} (game {self.game_id})"


class Withdrawal(models.Model):
    """A player leaving a running round robin (RR¶10, R-RR-23): what it did to their games."""

    class Effect(models.TextChoices):
        STRIKE = rules.STRIKE, _("All games struck")
        FORFEIT = rules.FORFEIT, _("Results stand, the rest forfeited")

    entry = models.OneToOneField(
        Entry, on_delete=models.CASCADE, related_name="rr_withdrawal", verbose_name=_("entry")
    )
    effect = models.CharField(_("effect"), max_length=10, choices=Effect.choices)
    finished = models.PositiveSmallIntegerField(_("finished games"))
    scheduled = models.PositiveSmallIntegerField(_("scheduled games"))
    at = models.DateTimeField(_("at"))

    history = HistoricalRecords()

    class Meta:
        ordering = ["at"]
        verbose_name = _("withdrawal")
        verbose_name_plural = _("withdrawals")
        constraints = [
            models.CheckConstraint(
                condition=Q(effect__in=[rules.STRIKE, rules.FORFEIT]),
                name="rr_withdrawal_effect_known",
            ),
            models.CheckConstraint(
                condition=Q(scheduled__gte=1, finished__lte=F("scheduled")),
                name="rr_withdrawal_counts",
            ),
            # R-RR-23: fewer than half finished -> struck, otherwise forfeits.
            models.CheckConstraint(
                condition=Q(effect=rules.STRIKE, scheduled__gt=F("finished") * 2)
                | Q(effect=rules.FORFEIT, scheduled__lte=F("finished") * 2),
                name="rr_withdrawal_effect_follows_rule",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.entry_id}: {self.effect}"

    def clean(self) -> None:
        if self.finished is None or self.scheduled is None:
            return
        try:
            effect = rules.withdrawal_effect(self.finished, self.scheduled)
        except rules.InvalidResult as exc:
            raise ValidationError(str(exc)) from exc
        if effect != self.effect:
            raise ValidationError({"effect": _("The rule gives %(effect)s.") % {"effect": effect}})


# --- The correspondence clock (R-RR-10..17) -------------------------------------------------------


class PlayerToken(models.Model):
    """An entry's private link: ``/p/<token>/`` and the API's ``Authorization: Bearer <token>``.

    Stored in plain text (not hashed): the organiser's page must be able to show and print the
    link again at any time. It grants only moving and reporting results in that player's own
    games; a leaked link is replaced through admin ("new links"), which makes the old one a 404.
    """

    entry = models.OneToOneField(
        Entry, on_delete=models.CASCADE, related_name="rr_token", verbose_name=_("entry")
    )
    token = models.CharField(_("token"), max_length=64, unique=True)
    created_at = models.DateTimeField(_("created at"))

    class Meta:
        verbose_name = _("private link")
        verbose_name_plural = _("private links")
        constraints = [
            models.CheckConstraint(
                condition=Q(token__regex=r"^[A-Za-z0-9_-]{32,64}$"), name="rr_token_long_enough"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.entry_id}: …{self.token[-4:]}"


class Turn(models.Model):
    """One turn of a game's simultaneous-turn clock (A-RR-01): both players owe a move.

    ``first`` is the game's White (seat position 1), ``second`` Black. The turn is open while
    ``closed_at`` is empty; it closes when both have moved (at the later move) or at its
    deadline, and the next turn opens at that moment (R-RR-11). A missed flag is set when the
    turn closed at its deadline without that player's move (R-RR-12).
    """

    MOVE_MAX_LENGTH = 200

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="rr_turns", verbose_name=_("game")
    )
    number = models.PositiveIntegerField(_("turn"))
    opened_at = models.DateTimeField(_("opened at"))
    deadline = models.DateTimeField(_("deadline"))
    first_move = models.CharField(_("White's move"), max_length=MOVE_MAX_LENGTH, blank=True)
    first_moved_at = models.DateTimeField(_("White moved at"), null=True, blank=True)
    second_move = models.CharField(_("Black's move"), max_length=MOVE_MAX_LENGTH, blank=True)
    second_moved_at = models.DateTimeField(_("Black moved at"), null=True, blank=True)
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    first_missed = models.BooleanField(_("White missed"), default=False)
    second_missed = models.BooleanField(_("Black missed"), default=False)
    first_reminded_at = models.DateTimeField(_("White reminded at"), null=True, blank=True)
    second_reminded_at = models.DateTimeField(_("Black reminded at"), null=True, blank=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["game", "number"]
        verbose_name = _("turn")
        verbose_name_plural = _("turns")
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="rr_turn_unique_number"),
            models.UniqueConstraint(
                fields=["game"], condition=Q(closed_at__isnull=True), name="rr_turn_one_open"
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="rr_turn_number_positive"),
            models.CheckConstraint(
                condition=Q(deadline__gt=F("opened_at")), name="rr_turn_deadline_after_open"
            ),
            models.CheckConstraint(
                condition=Q(closed_at__isnull=True)
                | Q(closed_at__gte=F("opened_at"), closed_at__lte=F("deadline")),
                name="rr_turn_closed_within_turn",
            ),
            # A missed move is known only once the turn closed, and a missed turn has no move.
            models.CheckConstraint(
                condition=Q(first_missed=False)
                | Q(closed_at__isnull=False, first_moved_at__isnull=True),
                name="rr_turn_first_missed_closed",
            ),
            models.CheckConstraint(
                condition=Q(second_missed=False)
                | Q(closed_at__isnull=False, second_moved_at__isnull=True),
                name="rr_turn_second_missed_closed",
            ),
            models.CheckConstraint(
                condition=Q(first_moved_at__isnull=True)
                | Q(first_moved_at__gte=F("opened_at"), first_moved_at__lte=F("deadline")),
                name="rr_turn_first_move_in_turn",
            ),
            models.CheckConstraint(
                condition=Q(second_moved_at__isnull=True)
                | Q(second_moved_at__gte=F("opened_at"), second_moved_at__lte=F("deadline")),
                name="rr_turn_second_move_in_turn",
            ),
        ]
        indexes = [
            # process_deadlines and the reminders read the open turns by deadline.
            models.Index(
                fields=["deadline"],
                condition=Q(closed_at__isnull=True),
                name="rr_turn_open_deadline",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game_id} #{self.number}"

    @property
    def is_open(self) -> bool:
        return self.closed_at is None

    @property
    def moved(self) -> tuple[bool, bool]:
        """The turn-log entry of a closed turn (rules.clock_state): moved in time."""
        return (not self.first_missed, not self.second_missed)

    def clean(self) -> None:
        errors: dict[str, object] = {}
        if self.opened_at and self.deadline and self.deadline <= self.opened_at:
            errors["deadline"] = _("The deadline must be after the turn opened.")
        if self.closed_at and self.opened_at and self.deadline:
            if not self.opened_at <= self.closed_at <= self.deadline:
                errors["closed_at"] = _("A turn closes between its opening and its deadline.")
        for seat in ("first", "second"):
            moved_at = getattr(self, f"{seat}_moved_at")
            if moved_at and self.opened_at and self.deadline:
                try:
                    closed = rules.close_turn(self.opened_at, moved_at, None, self.opened_at)
                except ValueError as exc:
                    errors[f"{seat}_moved_at"] = str(exc)
                    continue
                if closed is None and moved_at > self.deadline:
                    errors[f"{seat}_moved_at"] = _("A move after the deadline is void.")
            if getattr(self, f"{seat}_missed") and (moved_at or not self.closed_at):
                errors[f"{seat}_missed"] = _("Only a closed turn without a move is missed.")
        if errors:
            raise ValidationError(errors)


class ResultReport(models.Model):
    """A result reported by a player (private page or API), waiting for the opponent's word.

    A report that the reporter lost (a resignation) is recorded at once; any other report is
    recorded when the opponent reports the same result. Differing reports wait for the organiser.
    """

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="rr_reports", verbose_name=_("game")
    )
    entry = models.ForeignKey(
        Entry, on_delete=models.CASCADE, related_name="rr_reports", verbose_name=_("entry")
    )
    result = models.CharField(_("result"), max_length=10)
    at = models.DateTimeField(_("at"))

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("result report")
        verbose_name_plural = _("result reports")
        constraints = [
            models.UniqueConstraint(fields=["game", "entry"], name="rr_report_once_per_player"),
            models.CheckConstraint(
                condition=Q(result__in=list(rules.RESULT_KEYS)), name="rr_report_result_known"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}: {self.result} ({self.entry_id})"

    def clean(self) -> None:
        try:
            rules.result_points(self.result)
        except rules.InvalidResult:
            raise ValidationError(
                {"result": ValidationError(BAD_REPORT, code="bad_result")}
            ) from None
