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
from django.db.models.functions import Mod
from django.utils.translation import gettext_lazy as _, ngettext
from simple_history.models import HistoricalRecords

from events.models import MAX_RATING, Competition, Entry, Game, Player, Round, Seat, Session
from roundrobin import rules

BAD_SEAT_POINTS = _("The seats' points are not a result: 1-0, ½-½, 0-1 or 0-0 (double forfeit).")
BAD_REPORT = _("Report 1-0, ½-½ or 0-1.")


def game_words(game: Game) -> str:
    """ "LinCon 2026: League · Table 2 · Round 1 · Jansen – Bakker" for admin lists and titles.

    Reads the game's round, session, competition, event and seats with their players: admin
    lists select and prefetch them, so a list costs the same few queries for any length."""
    session = game.round.session
    seats = sorted(game.seats.all(), key=lambda seat: seat.position)
    players = " – ".join(seat.entry.player.name for seat in seats)
    stage = one_to_one_or_none(game.round, "rr_stage")
    turn = _("tiebreak") if stage is not None or game.round.number > 1 else _("Round 1")
    return f"{session.competition} · {session} · {turn} · {players}"


def one_to_one_or_none(obj: object, name: str) -> object:
    try:
        return getattr(obj, name)
    except Exception:  # the reverse one-to-one row does not exist
        return None


def entry_words(entry: Entry) -> str:
    """ "Jansen · League" (the entry's player and competition)."""
    return f"{entry.player.name} · {entry.competition}"


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
        verbose_name = _("round-robin rating snapshot")
        verbose_name_plural = _("round-robin rating snapshots")
        constraints = [
            models.CheckConstraint(
                condition=Q(rating__lte=MAX_RATING),
                name="rr_snapshot_rating_in_range",
                violation_error_message=_("A rating is at most the highest rating there is."),
            ),
            models.CheckConstraint(
                condition=Q(seed__gte=1),
                name="rr_snapshot_seed_positive",
                violation_error_message=_("Seeds are counted from 1."),
            ),
            models.CheckConstraint(
                condition=Q(table__gte=1),
                name="rr_snapshot_table_positive",
                violation_error_message=_("Tables are counted from 1."),
            ),
        ]

    def __str__(self) -> str:
        return _("%(entry)s: %(rating)s at the start, table %(table)s") % {
            "entry": entry_words(self.entry),
            "rating": self.rating,
            "table": self.table,
        }

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
        verbose_name = _("round-robin tiebreak stage")
        verbose_name_plural = _("round-robin tiebreak stages")
        constraints = [
            models.UniqueConstraint(
                fields=["table", "players_key", "attempt"],
                name="rr_stage_unique",
                violation_error_message=_(
                    "This table already has this tiebreak stage for these players and attempt."
                ),
            ),
            models.CheckConstraint(
                condition=Q(attempt__gte=1, attempt__lte=rules.TIEBREAK_ATTEMPTS),
                name="rr_stage_attempt_range",
                violation_error_message=_(
                    "A tiebreak is played at most twice (the replay is attempt 2)."
                ),
            ),
            models.CheckConstraint(
                condition=Q(place__gte=1, place__lte=rules.PODIUM_PLACES),
                name="rr_stage_place_podium",
                violation_error_message=_("Tiebreaks are played for places 1 to 3 only."),
            ),
            models.CheckConstraint(
                condition=Q(kind__in=[rules.DECIDER, rules.MINI_ROUND_ROBIN]),
                name="rr_stage_kind_known",
                violation_error_message=_("A tiebreak stage is a decider or a mini round robin."),
            ),
        ]

    def __str__(self) -> str:
        replay = f" ({_('replay')})" if self.attempt > 1 else ""
        return _("%(competition)s · %(table)s · %(kind)s for place %(place)s%(replay)s") % {
            "competition": self.table.competition,
            "table": self.table,
            "kind": self.get_kind_display(),
            "place": self.place,
            "replay": replay,
        }

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
    # A-RR-15: the organiser adjudicated the result or closed the game unplayed (issue 17);
    # who, when and why is in the correction trail.
    adjudicated = models.BooleanField(_("adjudicated"), default=False)

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("round-robin game")
        verbose_name_plural = _("round-robin games")
        constraints = [
            models.CheckConstraint(
                condition=Q(ending__in=Ending.values),
                name="rr_detail_ending_known",
                violation_error_message=_("Choose one of the listed endings."),
            ),
            models.CheckConstraint(
                condition=Q(ending="", ended_at__isnull=True)
                | (~Q(ending="") & Q(ended_at__isnull=False)),
                name="rr_detail_ended_iff_ending",
                violation_error_message=_(
                    "A game that is over has an end time, and a game in progress has none."
                ),
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
                violation_error_message=_("Only a played game or a time loss is rated."),
            ),
        ]
        indexes = [
            # The rating recomputation reads a competition's finished games in finish order.
            models.Index(fields=["ended_at"], name="rr_detail_ended_at"),
        ]

    def __str__(self) -> str:
        return f"{game_words(self.game)}: {self.get_ending_display()}"

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

    history = HistoricalRecords()

    class Meta:
        ordering = ["at", "game", "pk"]
        verbose_name = _("round-robin rating change")
        verbose_name_plural = _("round-robin rating changes")
        constraints = [
            models.UniqueConstraint(
                fields=["game", "entry"],
                name="rr_change_once_per_game",
                violation_error_message=_("A player's rating changes once per game."),
            ),
            models.CheckConstraint(
                condition=Q(after=F("before") + F("change")),
                name="rr_change_adds_up",
                violation_error_message=_(
                    "The rating after must be the rating before plus the change."
                ),
            ),
            models.CheckConstraint(
                condition=Q(k__in=[rules.K_PROVISIONAL, rules.K_REGULAR, rules.K_MASTER]),
                name="rr_change_k_fide",
                violation_error_message=_("K is 40, 20 or 10."),
            ),
            models.CheckConstraint(
                condition=Q(score__in=[0, 0.5, 1]),
                name="rr_change_score_valid",
                violation_error_message=_("A game's score is 1, ½ or 0."),
            ),
        ]
        indexes = [
            # A player's rating history, newest last.
            models.Index(fields=["player", "at"], name="rr_change_player_at"),
        ]

    def __str__(self) -> str:
        return _("%(player)s: %(before)s → %(after)s (%(change)+d) · %(competition)s") % {
            "player": self.player.name,
            "before": self.before,
            "after": self.after,
            "change": self.change,
            "competition": self.competition,
        }


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
        verbose_name = _("round-robin withdrawal")
        verbose_name_plural = _("round-robin withdrawals")
        constraints = [
            models.CheckConstraint(
                condition=Q(effect__in=[rules.STRIKE, rules.FORFEIT]),
                name="rr_withdrawal_effect_known",
                violation_error_message=_("A withdrawal strikes the games or forfeits the rest."),
            ),
            models.CheckConstraint(
                condition=Q(scheduled__gte=1, finished__lte=F("scheduled")),
                name="rr_withdrawal_counts",
                violation_error_message=_(
                    "Finished games cannot be more than the scheduled ones, and there is at "
                    "least one."
                ),
            ),
            # R-RR-23: fewer than half finished -> struck, otherwise forfeits.
            models.CheckConstraint(
                condition=Q(effect=rules.STRIKE, scheduled__gt=F("finished") * 2)
                | Q(effect=rules.FORFEIT, scheduled__lte=F("finished") * 2),
                name="rr_withdrawal_effect_follows_rule",
                violation_error_message=_(
                    "Fewer than half the games finished strikes them all; otherwise the "
                    "results stand."
                ),
            ),
        ]

    def __str__(self) -> str:
        return f"{entry_words(self.entry)}: {self.get_effect_display()}"

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

    # Who replaced a link and when; the tokens themselves stay out of the history.
    history = HistoricalRecords(excluded_fields=["token"])

    class Meta:
        verbose_name = _("round-robin private link")
        verbose_name_plural = _("round-robin private links")
        constraints = [
            models.CheckConstraint(
                condition=Q(token__regex=r"^[A-Za-z0-9_-]{32,64}$"),
                name="rr_token_long_enough",
                violation_error_message=_("A private link is 32 to 64 letters, digits, - or _."),
            ),
        ]

    def __str__(self) -> str:
        return f"{entry_words(self.entry)}: …{self.token[-4:]}"


class Turn(models.Model):
    """One turn of a game's simultaneous-turn clock (A-RR-01): both players owe a move.

    ``first`` is the game's White (seat position 1), ``second`` Black. The turn is open while
    ``closed_at`` is empty; it closes when both have moved (at the later move) or at its
    deadline, and the next turn opens at that moment (R-RR-11). A missed flag is set when the
    turn closed at its deadline without that player's move (R-RR-12).

    With alternating turns (``rules.turns``) a turn is one player's move (``mover``): it closes
    at that move or its deadline, and only the mover can miss it.
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
    # Alternating turns (rules.turns, N-RR-30): who owes this turn's move, 1 White or 2 Black by
    # the turn's parity; empty for a simultaneous turn (both owe a move).
    mover = models.PositiveSmallIntegerField(
        _("to move"),
        null=True,
        blank=True,
        choices=[(1, _("White")), (2, _("Black"))],
        help_text=_("Alternating turns only; empty: both players move in this turn."),
    )

    history = HistoricalRecords()

    class Meta:
        ordering = ["game", "number"]
        verbose_name = _("round-robin turn")
        verbose_name_plural = _("round-robin turns")
        constraints = [
            models.UniqueConstraint(
                fields=["game", "number"],
                name="rr_turn_unique_number",
                violation_error_message=_("This game already has a turn with this number."),
            ),
            models.UniqueConstraint(
                fields=["game"],
                condition=Q(closed_at__isnull=True),
                name="rr_turn_one_open",
                violation_error_message=_("A game has one open turn at a time."),
            ),
            models.CheckConstraint(
                condition=Q(number__gte=1),
                name="rr_turn_number_positive",
                violation_error_message=_("Turns are counted from 1."),
            ),
            models.CheckConstraint(
                condition=Q(deadline__gt=F("opened_at")),
                name="rr_turn_deadline_after_open",
                violation_error_message=_("The deadline must be after the turn opened."),
            ),
            models.CheckConstraint(
                condition=Q(closed_at__isnull=True)
                | Q(closed_at__gte=F("opened_at"), closed_at__lte=F("deadline")),
                name="rr_turn_closed_within_turn",
                violation_error_message=_("A turn closes between its opening and its deadline."),
            ),
            # A missed move is known only once the turn closed, and a missed turn has no move.
            models.CheckConstraint(
                condition=Q(first_missed=False)
                | Q(closed_at__isnull=False, first_moved_at__isnull=True),
                name="rr_turn_first_missed_closed",
                violation_error_message=_(
                    "Only a closed turn without White's move is missed by White."
                ),
            ),
            models.CheckConstraint(
                condition=Q(second_missed=False)
                | Q(closed_at__isnull=False, second_moved_at__isnull=True),
                name="rr_turn_second_missed_closed",
                violation_error_message=_(
                    "Only a closed turn without Black's move is missed by Black."
                ),
            ),
            models.CheckConstraint(
                condition=Q(first_moved_at__isnull=True)
                | Q(first_moved_at__gte=F("opened_at"), first_moved_at__lte=F("deadline")),
                name="rr_turn_first_move_in_turn",
                violation_error_message=_(
                    "White's move must be made between the turn's opening and its deadline."
                ),
            ),
            models.CheckConstraint(
                condition=Q(second_moved_at__isnull=True)
                | Q(second_moved_at__gte=F("opened_at"), second_moved_at__lte=F("deadline")),
                name="rr_turn_second_move_in_turn",
                violation_error_message=_(
                    "Black's move must be made between the turn's opening and its deadline."
                ),
            ),
            # N-RR-31: White owes the odd turns, Black the even ones; the other has no move.
            models.CheckConstraint(
                condition=Q(mover__isnull=True) | Q(mover=2 - Mod(F("number"), 2)),
                name="rr_turn_mover_by_parity",
                violation_error_message=_(
                    "With alternating turns White moves in odd turns and Black in even ones."
                ),
            ),
            models.CheckConstraint(
                condition=Q(mover__isnull=True)
                | Q(mover=1, second_moved_at__isnull=True, second_missed=False)
                | Q(mover=2, first_moved_at__isnull=True, first_missed=False),
                name="rr_turn_only_mover_moves",
                violation_error_message=_(
                    "With alternating turns only the player to move moves or misses."
                ),
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
        return _("%(game)s · turn %(number)s") % {
            "game": game_words(self.game),
            "number": self.number,
        }

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
        verbose_name = _("round-robin result report")
        verbose_name_plural = _("round-robin result reports")
        constraints = [
            models.UniqueConstraint(
                fields=["game", "entry"],
                name="rr_report_once_per_player",
                violation_error_message=_("This player already reported this game's result."),
            ),
            models.CheckConstraint(
                condition=Q(result__in=list(rules.RESULT_KEYS)),
                name="rr_report_result_known",
                violation_error_message=_("Report 1-0, ½-½ or 0-1."),
            ),
        ]

    def __str__(self) -> str:
        return _("%(player)s reports %(result)s · %(game)s") % {
            "player": self.entry.player.name,
            "result": self.result,
            "game": game_words(self.game),
        }

    def clean(self) -> None:
        try:
            rules.result_points(self.result)
        except rules.InvalidResult:
            raise ValidationError(
                {"result": ValidationError(BAD_REPORT, code="bad_result")}
            ) from None


class Leave(models.Model):
    """A player's announced leave (ICCF-style, issue 17): the clocks of their games stand still
    from ``starts_at`` to ``ends_at`` (``roundrobin.rules.leave``)."""

    entry = models.ForeignKey(
        Entry, on_delete=models.CASCADE, related_name="rr_leaves", verbose_name=_("entry")
    )
    starts_at = models.DateTimeField(_("starts at"))
    ends_at = models.DateTimeField(_("ends at"))
    days = models.PositiveSmallIntegerField(_("days"))
    created_at = models.DateTimeField(_("announced at"))
    by_desk = models.BooleanField(_("entered by the desk"), default=False)

    history = HistoricalRecords()

    class Meta:
        ordering = ["entry", "starts_at"]
        verbose_name = _("round-robin leave")
        verbose_name_plural = _("round-robin leaves")
        constraints = [
            models.CheckConstraint(
                condition=Q(days__gte=1, ends_at__gt=F("starts_at")),
                name="rr_leave_days_positive",
                violation_error_message=_("A leave is at least one whole day."),
            ),
        ]

    def __str__(self) -> str:
        return ngettext(
            "%(entry)s: leave of %(days)s day", "%(entry)s: leave of %(days)s days", self.days
        ) % {
            "entry": entry_words(self.entry),
            "days": self.days,
        }
