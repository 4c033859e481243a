"""Blokus detail tables beside the shared Session / Round / Game / Seat.

- ``SessionPlayer``: an entry's place in one qualifying session: registered, checked in at the
  roll call (and in which order), seated or reserve, and the drop-out (A-BLK-05).
- ``Hand``: what a seat had left when its game ended (squares, monomino last, the pieces).
- ``QualificationLot``: the recorded lot that splits exact ties in the qualification (§22).
- ``SessionNotHeld``: the organiser's record that a qualifying session could not be played
  (fewer than four at the roll call, ...), with the reason; it no longer holds up the final.
- ``RatingStep``: a player's rating before and after one game, derived from the
  results by ``blokus.services.rating``.
"""

from __future__ import annotations

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from blokus import rules
from blokus.validation import MONOMINO_WITH_SQUARES, hand_message
from events.models import Competition, Entry, Game, Player, Seat, Session


def hand_label(seat: Seat) -> str:
    """Where a seat played and who: "Session 1, round 2, Table 3 · Oskar" ("Final, Table 1 · …")."""
    game = seat.game
    session = game.round.session
    if session.kind == Session.Kind.FINAL:
        where = _("Final, %(table)s") % {"table": game}
    else:
        where = _("%(session)s, round %(round)s, %(table)s") % {
            "session": session,
            "round": game.round.number,
            "table": game,
        }
    return f"{where} · {seat.entry.player.name}"


class SessionPlayer(models.Model):
    """An entry in one qualifying session."""

    class Role(models.TextChoices):
        REGISTERED = "registered", _("registered")
        SEATED = "seated", _("playing")
        RESERVE = "reserve", _("reserve")
        REPLACED = "replaced", _("replaced by a reserve")

    session = models.ForeignKey(
        Session, on_delete=models.CASCADE, related_name="blokus_players", verbose_name=_("session")
    )
    entry = models.ForeignKey(
        Entry, on_delete=models.CASCADE, related_name="blokus_sessions", verbose_name=_("entry")
    )
    role = models.CharField(_("role"), max_length=20, choices=Role.choices, default=Role.REGISTERED)
    checked_in_at = models.DateTimeField(_("checked in at roll call"), null=True, blank=True)
    # Roll-call order, 1 for the first checked in: who is seated and who is reserve (A-BLK-04).
    roll_call = models.PositiveSmallIntegerField(_("roll-call order"), null=True, blank=True)
    # The last round played before dropping out (0: before round 1); later games count as
    # lost (A-BLK-05). Empty while the player is still in.
    dropped_after_round = models.PositiveSmallIntegerField(
        _("dropped out after round"), null=True, blank=True
    )
    # Reinstated after the drop-out: plays again from this round on; the rounds between stay
    # as recorded. Empty while the player is out (or never dropped out).
    back_from_round = models.PositiveSmallIntegerField(_("back from round"), null=True, blank=True)
    # The drop-out came from a withdrawal at the shared desk: reinstating the entry there
    # brings the player back from the next round drawn.
    dropped_by_withdrawal = models.BooleanField(_("dropped out by withdrawal"), default=False)

    history = HistoricalRecords()

    class Meta:
        ordering = ["session", "roll_call", "pk"]
        verbose_name = _("Blokus session player")
        verbose_name_plural = _("Blokus session players")
        constraints = [
            models.UniqueConstraint(
                fields=["session", "entry"],
                name="blokus_one_place_a_session",
                violation_error_message=_("This player is already registered for this session."),
            ),
            models.UniqueConstraint(
                fields=["session", "roll_call"],
                name="blokus_roll_call_order_unique",
                violation_error_message=_("Another player already has this roll-call place."),
            ),
            models.CheckConstraint(
                condition=Q(role__in=["registered", "seated", "reserve", "replaced"]),
                name="blokus_session_player_role_known",
                violation_error_message=_("Choose one of the roles offered."),
            ),
            models.CheckConstraint(
                condition=Q(roll_call__isnull=True) | Q(checked_in_at__isnull=False),
                name="blokus_roll_call_needs_check_in",
                violation_error_message=_("Only a player checked in has a roll-call place."),
            ),
            models.CheckConstraint(
                condition=Q(dropped_after_round__isnull=True) | Q(role="seated"),
                name="blokus_only_players_drop_out",
                violation_error_message=_("Only a player who is playing can drop out."),
            ),
            models.CheckConstraint(
                condition=Q(back_from_round__isnull=True)
                | Q(back_from_round__gt=models.F("dropped_after_round")),
                name="blokus_back_after_drop_out",
                violation_error_message=_(
                    "A player comes back only in a round after dropping out."
                ),
            ),
        ]

    def __str__(self) -> str:
        session = self.session
        return _("%(player)s in %(session)s of %(competition)s (%(event)s)") % {
            "player": self.entry.player.name,
            "session": session,
            "competition": session.competition.name,
            "event": session.competition.event.name,
        }

    def clean(self) -> None:
        # R-BLK-07 for admin edits too: a player plays in one qualifying session at most.
        if self.role == self.Role.SEATED and self.entry_id:
            elsewhere = (
                SessionPlayer.objects.filter(entry_id=self.entry_id, role=self.Role.SEATED)
                .exclude(session_id=self.session_id)
                .select_related("session")
                .first()
            )
            if elsewhere is not None:
                message = _("This player already played in %(session)s.") % {
                    "session": elsewhere.session
                }
                raise ValidationError({"role": ValidationError(message, code="already_played")})
        if self.dropped_after_round is not None and self.role != self.Role.SEATED:
            not_playing = _("Only a player who is playing can drop out.")
            raise ValidationError(
                {"dropped_after_round": ValidationError(not_playing, code="not_seated_player")}
            )

    @property
    def is_checked_in(self) -> bool:
        return self.checked_in_at is not None

    @property
    def has_dropped_out(self) -> bool:
        """Out of the session now (dropped out and not reinstated)."""
        return self.dropped_after_round is not None and self.back_from_round is None

    @property
    def out_span(self) -> tuple[int | None, int | None]:
        """(dropped out after round, back from round), for ``rules.out_in_round``."""
        return self.dropped_after_round, self.back_from_round


class Hand(models.Model):
    """A seat's remaining pieces when its game ended; the seat's score follows from it."""

    seat = models.OneToOneField(
        Seat, on_delete=models.CASCADE, related_name="blokus_hand", verbose_name=_("seat")
    )
    squares_left = models.PositiveSmallIntegerField(_("squares left"))
    monomino_last = models.BooleanField(_("monomino placed last"), default=False)
    # Names of the unplaced pieces (rules.PIECE_SIZES keys) when they were tapped in; optional.
    pieces = models.JSONField(_("pieces left"), default=list, blank=True)

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("Blokus hand")
        verbose_name_plural = _("Blokus hands")
        constraints = [
            models.CheckConstraint(
                condition=Q(squares_left__gte=0) & Q(squares_left__lte=rules.TOTAL_SQUARES),
                name="blokus_squares_left_in_range",
                violation_error_message=_("Squares left must be a whole number from 0 to 89."),
            ),
            models.CheckConstraint(
                condition=Q(monomino_last=False) | Q(squares_left=0),
                name="blokus_monomino_last_only_when_all_placed",
                violation_error_message=MONOMINO_WITH_SQUARES,
            ),
        ]

    def __str__(self) -> str:
        """ "Session 1, round 2, Table 3 · Oskar" (the admin's list selects what it names)."""
        return hand_label(self.seat)

    def clean(self) -> None:
        """The same check as the desk's (``rules.check_hand``), for a hand edited in admin."""
        try:
            rules.check_hand(
                self.squares_left,
                self.monomino_last,
                self.pieces,
                dropped_out=self._dropped_out(),
            )
        except rules.InvalidResult as exc:
            field = exc.field or NON_FIELD_ERRORS
            raise ValidationError(
                {field: ValidationError(hand_message(exc), code=exc.code)}
            ) from exc

    def _dropped_out(self) -> bool:
        """Whether the seat's player dropped out of the session before this game (A-BLK-05)."""
        if not self.seat_id:
            return False
        seat = Seat.objects.select_related("game__round__session").get(pk=self.seat_id)
        round_ = seat.game.round
        if round_.session.kind != Session.Kind.QUALIFYING:
            return False
        return (
            SessionPlayer.objects.filter(
                session_id=round_.session_id,
                entry_id=seat.entry_id,
                dropped_after_round__lt=round_.number,
            )
            .exclude(back_from_round__lte=round_.number)
            .exists()
        )


class SessionNotHeld(models.Model):
    """A qualifying session the organiser declared not held (A-BLK-11): nobody played in it,
    so it does not hold up the final, which takes the top four of those who did play."""

    session = models.OneToOneField(
        Session, on_delete=models.CASCADE, related_name="blokus_not_held", verbose_name=_("session")
    )
    reason = models.CharField(_("reason"), max_length=200)
    recorded_at = models.DateTimeField(_("recorded at"), auto_now_add=True)

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("Blokus session not held")
        verbose_name_plural = _("Blokus sessions not held")

    def __str__(self) -> str:
        return f"{self.session}: {self.reason}"


class QualificationLot(models.Model):
    """The lot drawn once for exact ties in the qualification ranking (§22, R-BLK-28)."""

    competition = models.OneToOneField(
        Competition,
        on_delete=models.CASCADE,
        related_name="blokus_lot",
        verbose_name=_("competition"),
    )
    seed = models.BigIntegerField(_("draw seed"))
    # Entry ids in lot order: earlier wins an exact tie on points and total score.
    order = models.JSONField(_("lot order"), default=list)
    drawn_at = models.DateTimeField(_("drawn at"), auto_now_add=True)

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("Blokus qualification lot")
        verbose_name_plural = _("Blokus qualification lots")

    def __str__(self) -> str:
        return _("Qualification lot of %(competition)s (%(event)s)") % {
            "competition": self.competition.name,
            "event": self.competition.event.name,
        }


class RatingStep(models.Model):
    """One player's Blokus rating before and after one game (``blokus.rules.rating``).

    The steps are written only by ``blokus.services.rating.rating_recompute`` and are
    derived: deleting them all and recomputing gives the same rows. ``order_key`` is the game's
    place in the one chronological order of all Blokus games (``game_order_key`` beside the
    recompute): the event's first day, then the competition (by id, for two on one day), the
    session's number (the final comes after the qualifying sessions), the round's number and
    the table's number.
    Dates and numbers, not clock times: a round's clock may never have been started, and a
    desk can enter a table's result after the next round began.
    """

    # No database constraints on the two keys: a constraint's check takes a KEY SHARE lock on
    # the game's and the player's rows, which a write waiting for the rating lock could hold
    # FOR UPDATE (PostgreSQL: a deadlock). Result writes take the rating lock first, so none
    # should; this keeps a future one that forgets from deadlocking. Django's collector
    # still deletes the steps with the game or the player, and a recompute rewrites them.
    player = models.ForeignKey(
        Player,
        on_delete=models.CASCADE,
        db_constraint=False,
        related_name="blokus_rating_steps",
        verbose_name=_("player"),
    )
    game = models.ForeignKey(
        Game,
        on_delete=models.CASCADE,
        db_constraint=False,
        related_name="blokus_rating_steps",
        verbose_name=_("game"),
    )
    order_key = models.CharField(_("order of play"), max_length=64)
    mu_before = models.FloatField(_("mu before"))
    sigma_before = models.FloatField(_("sigma before"))
    mu_after = models.FloatField(_("mu after"))
    sigma_after = models.FloatField(_("sigma after"))
    conservative_after = models.FloatField(_("rating after"))

    class Meta:
        ordering = ["order_key", "pk"]
        verbose_name = _("Blokus rating step")
        verbose_name_plural = _("Blokus rating steps")
        indexes = [
            models.Index(fields=["player", "order_key"], name="blokus_rating_player_order"),
            models.Index(fields=["order_key"], name="blokus_rating_order"),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["player", "game"],
                name="blokus_rating_step_once",
                violation_error_message=_("This player already has a rating step for this game."),
            ),
            models.CheckConstraint(
                condition=Q(sigma_before__gt=0) & Q(sigma_after__gt=0),
                name="blokus_rating_sigma_positive",
                violation_error_message=_("A rating's uncertainty is above 0."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} · {self.game_id}: {self.conservative_after:.1f}"
