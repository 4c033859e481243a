"""The tables and what is drawn from their results: the rating snapshot taken at the start, the
tiebreak stages, a detail row per game (how it ended, struck, rated, when), the rating change
log and withdrawals; the words admin lists and titles use for a game and an entry.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from events.models import MAX_RATING, Competition, Entry, Game, Player, Round, Seat, Session
from roundrobin import rules

# A tiebreak stage's players: two or more entry ids, ascending, joined by commas (key_of).
PLAYERS_KEY_PATTERN = r"^[0-9]+(,[0-9]+)+$"
PLAYERS_KEY_INVALID = _(
    "The players of a tiebreak stage are two or more entry ids in ascending order, separated "
    "by commas (such as 12,15)."
)
PLAYERS_NOT_AT_TABLE = _("Every player of a tiebreak stage plays at its table.")
SNAPSHOT_TABLE_WRONG = _("The entry plays at table %(table)s; the snapshot names that table.")
ADJUDICATED_OPEN = _("Only a game that has ended can be adjudicated.")
STRUCK_OPEN = _("Striking a game in progress cancels it: withdraw the player at the desk.")
BAD_SEAT_POINTS = _("The seats' points are not a result: 1-0, ½-½, 0-1 or 0-0 (double forfeit).")


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
        if self.entry_id is not None and self.table is not None:
            playing = (
                Seat.objects.filter(entry_id=self.entry_id)
                .values_list("game__round__session__number", flat=True)
                .first()
            )
            if playing is not None and playing != self.table:
                raise ValidationError({"table": SNAPSHOT_TABLE_WRONG % {"table": playing}})


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
            models.CheckConstraint(
                condition=Q(players_key__regex=PLAYERS_KEY_PATTERN),
                name="rr_stage_players_key_ids",
                violation_error_message=PLAYERS_KEY_INVALID,
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
        """The stage's players; a key that is not ids (the database refuses one) gives none."""
        parts = (self.players_key or "").split(",")
        return frozenset(int(pk) for pk in parts if pk.isdigit() and pk.isascii())

    def clean(self) -> None:
        key = self.players_key or ""
        ids = [int(pk) for pk in key.split(",") if pk.isdigit() and pk.isascii()]
        if len(ids) < 2 or key != self.key_of(ids) or len(set(ids)) != len(ids):
            raise ValidationError({"players_key": PLAYERS_KEY_INVALID})
        if self.table_id is not None:
            seated = set(
                Seat.objects.filter(
                    game__round__session_id=self.table_id, entry_id__in=ids
                ).values_list("entry_id", flat=True)
            )
            if seated != set(ids):
                raise ValidationError({"players_key": PLAYERS_NOT_AT_TABLE})


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
    # A-RR-15: the organiser adjudicated the result or closed the game unplayed;
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
            # A strike cancels the games still open (A-RR-13), an adjudication ends the game.
            models.CheckConstraint(
                condition=Q(struck=False) | ~Q(ending=""),
                name="rr_detail_struck_only_when_over",
                violation_error_message=STRUCK_OPEN,
            ),
            models.CheckConstraint(
                condition=Q(adjudicated=False) | ~Q(ending=""),
                name="rr_detail_adjudicated_only_when_over",
                violation_error_message=ADJUDICATED_OPEN,
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
        if self.adjudicated and not self.is_over:
            raise ValidationError({"adjudicated": ADJUDICATED_OPEN})
        if self.struck and not self.is_over:
            raise ValidationError({"struck": STRUCK_OPEN})
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
