"""The sjoelen detail table: one ``Turn`` per player per game, with the four gate counts.

A competition's settings (games, boards, bonus_disc) are ``competition.options``. The board
rota is not stored: it follows from the order in which players checked in (see selectors). The
score is derived from the counts by ``rules.py`` and the database checks that it matches.
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

GATE_FIELDS = ("c1", "c2", "c3", "c4")  # gate-value order 1, 2, 3, 4
BONUS_FIELDS = ("b1", "b2", "b3", "b4")
MAX_BONUS_DISCS = rules.SUB_TURNS - 1

NOT_SJOELEN = _("This player is not in a sjoelen competition.")
NUMBER_OUT_OF_RANGE = _("The game number must be from 1 to %(games)s.")


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

    class Meta:
        ordering = ["entry", "number"]
        verbose_name = _("sjoelen game")
        verbose_name_plural = _("sjoelen games")
        constraints = [
            models.UniqueConstraint(fields=["entry", "number"], name="sjoelen_turn_one_per_game"),
            models.CheckConstraint(condition=Q(number__gte=1), name="sjoelen_turn_number_positive"),
            models.CheckConstraint(
                condition=Q(board__isnull=True) | Q(board__gte=1),
                name="sjoelen_turn_board_positive",
            ),
            models.CheckConstraint(
                condition=Q(c1__gte=0, c2__gte=0, c3__gte=0, c4__gte=0),
                name="sjoelen_turn_counts_not_negative",
            ),
            models.CheckConstraint(
                condition=Q(c1__lte=rules.DISCS - F("c2") - F("c3") - F("c4")),
                name="sjoelen_turn_at_most_30_discs",
            ),
            models.CheckConstraint(
                condition=Q(b1__gte=0, b2__gte=0, b3__gte=0, b4__gte=0)
                & Q(b1__lte=MAX_BONUS_DISCS - F("b2") - F("b3") - F("b4")),
                name="sjoelen_turn_bonus_discs_in_range",
            ),
            models.CheckConstraint(
                condition=Q(max_after__isnull=True) | Q(max_after__gte=1, max_after__lte=3),
                name="sjoelen_turn_max_after_valid",
            ),
            models.CheckConstraint(
                condition=Q(b1=0, b2=0, b3=0, b4=0) | Q(max_after__isnull=False),
                name="sjoelen_turn_bonus_needs_148",
            ),
            models.CheckConstraint(
                condition=Q(score__gte=0, score__lte=rules.MAX_BONUS_SCORE),
                name="sjoelen_turn_score_in_range",
            ),
            models.CheckConstraint(
                condition=Q(score=_FORMULA), name="sjoelen_turn_score_matches_counts"
            ),
        ]

    def __str__(self) -> str:
        return _("Game %(number)s: %(score)s") % {"number": self.number, "score": self.score}

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
    def discs(self) -> int:
        return sum(self.counts)

    @property
    def bonus_total(self) -> int:
        return sum(self.bonus_counts)

    def clean(self) -> None:
        """Admin edits obey the same rules as the desk: ``rules.check_game``, score derived."""
        if not self.entry_id:
            return
        competition = Entry.objects.select_related("competition").get(pk=self.entry_id).competition
        if competition.format != SJOELEN.key:
            raise ValidationError({"entry": NOT_SJOELEN}, code="wrong_format")
        options = competition.options
        if self.number is not None and not 1 <= self.number <= options.games:
            raise ValidationError(
                {"number": NUMBER_OUT_OF_RANGE % {"games": options.games}}, code="game_number"
            )
        try:
            result = rules.check_game(
                self.counts,
                bonus_counts=self.bonus_counts,
                max_after=self.max_after,
                bonus=options.bonus_disc,
            )
        except rules.InvalidResult as exc:
            raise ValidationError(str(exc), code=exc.code) from exc
        self.max_after, self.score = result.max_after, result.score
