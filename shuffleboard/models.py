"""The sjoelen detail table: one ``Turn`` per player per game, with the four gate counts.

A competition's settings (games, boards, bonus_disc) are ``competition.options``. The board
rota is not stored: it follows from the order in which players checked in (see selectors). The
score is derived from the counts by the rules (``shuffleboard.rules``) and the database checks
that it matches.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.db.models.expressions import CombinedExpression
from django.db.models.functions import Least
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from events.models import Entry
from shuffleboard import rules
from shuffleboard.format import SJOELEN
from shuffleboard.validation import rule_message

GATE_FIELDS = ("c1", "c2", "c3", "c4")  # gate-value order 1, 2, 3, 4
BONUS_FIELDS = ("b1", "b2", "b3", "b4")
MAX_BONUS_DISCS = rules.SUB_TURNS - 1

NOT_SJOELEN = _("This player is not in a sjoelen competition.")
NUMBER_OUT_OF_RANGE = _("The game number must be from 1 to %(games)s.")
# What the database checks say when a form meets them (never the constraint's name).
ONE_PER_GAME = _("This player already has a game with this number.")
NUMBER_POSITIVE = _("The game number must be 1 or more.")
BOARD_POSITIVE = _("The board must be 1 or more.")
COUNTS_NOT_NEGATIVE = _("A count cannot be negative.")
AT_MOST_30 = _("There are only 30 discs.")
BONUS_RANGE = _("A turn earns at most two bonus discs.")
MAX_AFTER_VALID = _("148 can only be reached after sub-turn 1, 2 or 3.")
BONUS_NEEDS_148 = _("Bonus discs need 148 reached before the last sub-turn.")
SCORE_RANGE = _("A game score must be from 0 to 156.")
SCORE_MATCHES = _("The score must be what the counts give.")

# rules.check_game's error codes -> the admin field they are shown beside
FIELD_OF_CODE = {
    "count_not_whole": "c1",
    "count_negative": "c1",
    "too_many_discs": "c1",
    "wrong_number_of_counts": "c1",
    "counts_not_a_list": "c1",
    "bonus_off": "b1",
    "bonus_too_many": "b1",
    "bonus_not_earned": "max_after",
    "sub_turn_not_valid": "max_after",
}


def _with_bonus(gate: str, bonus: str) -> CombinedExpression:
    return F(gate) + F(bonus)


# score = 20·s + Σ v·(c − s) = 10·s + Σ v·c, with s the smallest count (R-SJ-09).
_TOTALS = [_with_bonus(c, b) for c, b in zip(GATE_FIELDS, BONUS_FIELDS, strict=True)]
_FORMULA = Least(*_TOTALS) * 10 + _TOTALS[0] + _TOTALS[1] * 2 + _TOTALS[2] * 3 + _TOTALS[3] * 4


class Turn(models.Model):
    """One game of one player: the discs in each gate at the end of the turn, and its score."""

    entry = models.ForeignKey(
        Entry,
        on_delete=models.PROTECT,
        related_name="shuffleboard_turns",
        verbose_name=_("player"),
    )
    number = models.PositiveSmallIntegerField(_("game"))
    board = models.PositiveSmallIntegerField(
        _("board"), null=True, blank=True, help_text=_("The board it was played on, from 1.")
    )
    c1 = models.PositiveSmallIntegerField(_("discs in the 1-point gate"))
    c2 = models.PositiveSmallIntegerField(_("discs in the 2-point gate"))
    c3 = models.PositiveSmallIntegerField(_("discs in the 3-point gate"))
    c4 = models.PositiveSmallIntegerField(_("discs in the 4-point gate"))
    # Bonus discs (A-SJ-04): only with the competition's bonus rule, after 148 before sub-turn 3.
    max_after = models.PositiveSmallIntegerField(
        _("148 reached after sub-turn"), null=True, blank=True
    )
    b1 = models.PositiveSmallIntegerField(_("bonus discs in the 1-point gate"), default=0)
    b2 = models.PositiveSmallIntegerField(_("bonus discs in the 2-point gate"), default=0)
    b3 = models.PositiveSmallIntegerField(_("bonus discs in the 3-point gate"), default=0)
    b4 = models.PositiveSmallIntegerField(_("bonus discs in the 4-point gate"), default=0)
    score = models.PositiveSmallIntegerField(_("score"), editable=False)
    # The sub-turn rows as entered at the desk (A-SJ-15): a list of up to three [c1, c2, c3, c4]
    # in gate-value order, or null when only the totals were entered.
    sub_turns = models.JSONField(_("sub-turns"), null=True, blank=True, editable=False)
    # Bumped by every write; a correction form carries the revision it was drawn from.
    revision = models.PositiveIntegerField(default=1, editable=False)
    entered_at = models.DateTimeField(_("entered at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("entered by"),
    )

    history = HistoricalRecords()

    # Set by the selectors (not stored): the problem when a stored row breaks the rules.
    attention: str | None = None

    class Meta:
        ordering = ["entry", "number"]
        verbose_name = _("sjoelen game")
        verbose_name_plural = _("sjoelen games")
        constraints = [
            models.UniqueConstraint(
                fields=["entry", "number"],
                name="sjoelen_turn_one_per_game",
                violation_error_message=ONE_PER_GAME,
            ),
            models.CheckConstraint(
                condition=Q(number__gte=1),
                name="sjoelen_turn_number_positive",
                violation_error_message=NUMBER_POSITIVE,
            ),
            models.CheckConstraint(
                condition=Q(board__isnull=True) | Q(board__gte=1),
                name="sjoelen_turn_board_positive",
                violation_error_message=BOARD_POSITIVE,
            ),
            models.CheckConstraint(
                condition=Q(c1__gte=0, c2__gte=0, c3__gte=0, c4__gte=0),
                name="sjoelen_turn_counts_not_negative",
                violation_error_message=COUNTS_NOT_NEGATIVE,
            ),
            models.CheckConstraint(
                condition=Q(c1__lte=rules.DISCS - F("c2") - F("c3") - F("c4")),
                name="sjoelen_turn_at_most_30_discs",
                violation_error_message=AT_MOST_30,
            ),
            models.CheckConstraint(
                condition=Q(b1__gte=0, b2__gte=0, b3__gte=0, b4__gte=0)
                & Q(b1__lte=MAX_BONUS_DISCS - F("b2") - F("b3") - F("b4")),
                name="sjoelen_turn_bonus_discs_in_range",
                violation_error_message=BONUS_RANGE,
            ),
            models.CheckConstraint(
                condition=Q(max_after__isnull=True) | Q(max_after__gte=1, max_after__lte=3),
                name="sjoelen_turn_max_after_valid",
                violation_error_message=MAX_AFTER_VALID,
            ),
            models.CheckConstraint(
                condition=Q(b1=0, b2=0, b3=0, b4=0) | Q(max_after__isnull=False),
                name="sjoelen_turn_bonus_needs_148",
                violation_error_message=BONUS_NEEDS_148,
            ),
            models.CheckConstraint(
                condition=Q(score__gte=0, score__lte=rules.MAX_BONUS_SCORE),
                name="sjoelen_turn_score_in_range",
                violation_error_message=SCORE_RANGE,
            ),
            models.CheckConstraint(
                condition=Q(score=_FORMULA),
                name="sjoelen_turn_score_matches_counts",
                violation_error_message=SCORE_MATCHES,
            ),
        ]

    def __str__(self) -> str:
        """ "Game 3 of Epp Saks (LinCon 2026 › Sjoelen): 112", readable in any admin list."""
        if not self.entry_id:
            return _("Game %(number)s") % {"number": self.number}
        competition = self.entry.competition
        return _("Game %(number)s of %(player)s (%(event)s › %(competition)s): %(score)s") % {
            "number": self.number,
            "player": self.entry.player.name,
            "event": competition.event.name,
            "competition": competition.name,
            "score": self.score,
        }

    @property
    def counts(self) -> tuple[int, int, int, int]:
        return (self.c1, self.c2, self.c3, self.c4)

    @property
    def bonus_counts(self) -> tuple[int, int, int, int]:
        return (self.b1, self.b2, self.b3, self.b4)

    @property
    def board_counts(self) -> list[tuple[int, int]]:
        """(gate value, discs) in the order the gates stand on the board: 2, 3, 4, 1."""
        return [(value, self.counts[value - 1]) for value in rules.BOARD_ORDER]

    @property
    def sub_turn_rows(self) -> list[tuple[int, list[int]]]:
        """(sub-turn number, discs per gate in board order 2, 3, 4, 1), only when the stored
        rows pass the rules and add up to the counts (A-SJ-15); [] otherwise."""
        rows = rules.stored_sub_turns(self.sub_turns, self.counts)
        return [
            (number, [row[value - 1] for value in rules.BOARD_ORDER])
            for number, row in enumerate(rows or (), start=1)
        ]

    @property
    def discs(self) -> int:
        return sum(self.counts)

    @property
    def bonus_total(self) -> int:
        return sum(self.bonus_counts)

    def clean(self) -> None:
        """Admin edits obey the same rules as the desk: ``rules.check_game``, score derived.

        A problem is shown beside the field it concerns (the counts' line, the bonus line)."""
        if not self.entry_id:
            return
        entry = Entry.objects.select_related("competition").filter(pk=self.entry_id).first()
        if entry is None:
            return
        competition = entry.competition
        if competition.format != SJOELEN.key:
            raise ValidationError({"entry": NOT_SJOELEN}, code="wrong_format")
        options = competition.options
        # Title play-off games (A-SJ-16) are numbered after the games.
        games = options.games + (rules.PLAYOFF_ROUNDS if options.title_playoff else 0)
        if self.number is not None and not 1 <= self.number <= games:
            raise ValidationError(
                {"number": NUMBER_OUT_OF_RANGE % {"games": games}}, code="game_number"
            )
        values = (*self.counts, *self.bonus_counts)
        if any(value is None for value in values):
            return  # the field itself already says what is wrong
        try:
            result = rules.check_game(
                self.counts,
                bonus_counts=self.bonus_counts,
                max_after=self.max_after,
                bonus=options.bonus_disc,
            )
        except rules.InvalidResult as exc:
            field = FIELD_OF_CODE.get(exc.code, "c1")
            raise ValidationError(
                {field: ValidationError(rule_message(exc), code=exc.code)}
            ) from exc
        self.max_after, self.score = result.max_after, result.score
