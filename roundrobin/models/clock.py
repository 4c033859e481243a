"""The correspondence clock (R-RR-10..17): players' private links, each game's turns and
moves, players' result reports and their leave.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Mod
from django.utils.translation import gettext_lazy as _, ngettext
from simple_history.models import HistoricalRecords

from events.models import Entry, Game
from roundrobin import rules
from roundrobin.models.tables import entry_words, game_words

BAD_REPORT = _("Report 1-0, ½-½ or 0-1.")


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
    """A player's announced leave (ICCF-style): the clocks of their games stand still
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
