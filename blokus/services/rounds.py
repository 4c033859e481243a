"""Rounds: the draw of each round's tables and colours, and the round's clock."""

from __future__ import annotations

import datetime as dt
import random
from fractions import Fraction

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _, ngettext

from blokus import rules, selectors
from blokus.models import SessionPlayer
from blokus.selectors.seating import draws_apart
from blokus.services import notices
from blokus.services.common import (
    ensure_open,
    ensure_qualifying,
    invalid,
    locked_session,
    new_seed,
)
from blokus.services.players import come_back
from blokus.services.seating import apart_tables
from events.errors import Conflict, refuse
from events.models import Entry, Game, ResultProposal, Round, Seat, Session
from events.services import competition_touch
from events.services.play import games_create

SESSION_NOT_SEATED = _("%(session)s has not been seated yet.")
ROUND_NOT_FINISHED = _("Round %(round)s still has games without a result.")
ROUND_HAS_RESULTS = _(
    "Round %(round)s has results or results proposed: it can no longer be drawn again."
)
NOT_LAST_ROUND = _("Round %(round)s is not the last round drawn: only the last can be drawn again.")
CLOCK_RUNNING = _("The clock of round %(round)s was already started.")
FINAL_HAS_NO_CLOCK = _("The final has no time limit (§24).")


def create_games(round_: Round, tables: list[list[Entry]], rng: random.Random) -> list[Game]:
    """One game per table, its seats in playing order with the colours drawn (a table of two
    or three, a final's replay or a three-handed game, draws the first colours)."""
    seated = []
    for table in tables:
        try:
            if len(table) == rules.PLAYERS_PER_GAME:
                colours = rules.draw_colours(table, rng)
            else:
                colours = rules.draw_colours_for(table, rng)
        except rules.InvalidResult as exc:
            raise invalid(exc) from exc
        seated.append([(entry.pk, colour) for entry, colour in colours.items()])
    return games_create(round_, seated)


def _group(
    standings: list, seated: list[SessionPlayer], number: int, options, rng: random.Random
) -> list[list[Entry]]:
    """The round's tables: everyone seated, drop-outs included (A-BLK-05), or with the
    three-handed option only those still playing, at tables of four and three. When those
    cannot be split so (1, 2 or 5 still playing), the round is played the standard way."""
    out = {sp.entry_id for sp in seated if rules.out_in_round(*sp.out_span, number)}
    if options.three_handed_after_dropout and out:
        playing = [row for row in standings if row[0].pk not in out]
        try:
            rules.three_handed_sizes(len(playing))
        except rules.InvalidResult:
            pass
        else:
            return rules.group_round_three_handed(playing, rng)
    return rules.group_round(standings, rng)


def draw_tables(
    session: Session, seated: list[SessionPlayer], number: int, rng: random.Random
) -> list[list[Entry]]:
    """Round ``number``'s tables: by the rules (R-BLK-25, R-BLK-26), or drawn apart when the
    competition's ``seating_apart`` setting asks for it in this round."""
    options = session.competition.options
    if draws_apart(options, number):
        try:
            return apart_tables(session, seated, number, options, rng)
        except ValueError as exc:  # a count no tables of four and three can seat
            raise invalid(rules.InvalidResult(str(exc))) from exc
    try:
        totals = selectors.session_totals(session)
        standings = [(sp.entry, *totals.get(sp.entry_id, (Fraction(0), 0))) for sp in seated]
        return _group(standings, seated, number, options, rng)
    except rules.InvalidResult as exc:
        raise invalid(exc) from exc


@transaction.atomic
def round_draw(*, session: Session, seed: int | None = None) -> Round:
    """Draw the next round: round 1 by lot, later ones by points, total score, lot (§15, §16)."""
    session = locked_session(session)
    competition = session.competition
    ensure_open(competition)
    ensure_qualifying(session)
    rounds_per_session = competition.options.rounds_per_session
    seated = list(
        SessionPlayer.objects.filter(session=session, role=SessionPlayer.Role.SEATED)
        .select_related("entry__player")
        .order_by("roll_call", "pk")
    )
    if not seated:
        raise refuse(SESSION_NOT_SEATED, code="session_not_seated", session=session)
    last = Round.objects.filter(session=session).order_by("-number").first()
    number = (last.number if last else 0) + 1
    if number > rounds_per_session:
        raise refuse(
            ngettext(
                "The %(rounds)s round of %(session)s has been drawn.",
                "All %(rounds)s rounds of %(session)s have been drawn.",
                rounds_per_session,
            ),
            code="all_rounds_drawn",
            rounds=rounds_per_session,
            session=session,
        )
    if last and last.games.exclude(status=Game.Status.FINISHED).exists():
        raise refuse(ROUND_NOT_FINISHED, code="round_not_finished", round=last.number)
    # Players withdrawn at the shared desk drop out after the round in progress (A-BLK-05);
    # one reinstated there since comes back from this round (their rounds out stay as recorded).
    changed = []
    for sp in seated:
        if sp.entry.withdrawn_at and not sp.has_dropped_out:
            sp.dropped_after_round = number - 1
            sp.back_from_round = None
            sp.dropped_by_withdrawal = True
            changed.append(sp)
        elif not sp.entry.withdrawn_at and sp.has_dropped_out and sp.dropped_by_withdrawal:
            come_back(sp, number)
            changed.append(sp)
    SessionPlayer.objects.bulk_update(
        changed, ["dropped_after_round", "back_from_round", "dropped_by_withdrawal"]
    )
    seed = new_seed() if seed is None else seed
    rng = random.Random(seed)
    tables = draw_tables(session, seated, number, rng)
    round_ = Round.objects.create(session=session, number=number, seed=seed)
    create_games(round_, tables, rng)
    competition_touch(competition)
    notices.round_drawn(round_)  # to the players who chose notifications
    return round_


@transaction.atomic
def round_redraw(*, round: Round, seed: int | None = None) -> Round:  # noqa: A002
    """Draw the session's last round again, as ``round_draw`` drew it (the same rules or
    wishes, a new seed), while none of its tables has a result or a result proposed. A clock
    already started keeps running. Players whose seat (table or colour) changed hear their new
    one; the others hear nothing again (``notices.round_drawn``)."""
    session = locked_session(round.session)
    competition = session.competition
    ensure_open(competition)
    ensure_qualifying(session)
    round_ = Round.objects.select_for_update().get(pk=round.pk, session=session)
    if Round.objects.filter(session=session, number__gt=round_.number).exists():
        raise refuse(NOT_LAST_ROUND, code="not_last_round", round=round_.number)
    games = Game.objects.filter(round=round_)
    if (
        games.filter(status=Game.Status.FINISHED).exists()
        or Seat.objects.filter(game__round=round_, score__isnull=False).exists()
        or ResultProposal.objects.filter(game__round=round_).exists()
    ):
        raise refuse(
            ROUND_HAS_RESULTS, error_class=Conflict, code="round_has_results", round=round_.number
        )
    seated = list(
        SessionPlayer.objects.filter(session=session, role=SessionPlayer.Role.SEATED)
        .select_related("entry__player")
        .order_by("roll_call", "pk")
    )
    round_.seed = new_seed() if seed is None else seed
    rng = random.Random(round_.seed)
    tables = draw_tables(session, seated, round_.number, rng)
    games.delete()  # their seats with them; the history keeps both
    round_.save(update_fields=["seed"])
    create_games(round_, tables, rng)
    if round_.started_at:
        games.update(status=Game.Status.PLAYING)
    competition_touch(competition)
    notices.round_drawn(round_)
    return round_


@transaction.atomic
def round_start_clock(*, round: Round, now: dt.datetime | None = None) -> Round:  # noqa: A002
    """Start the round's clock for every board at once (A-BLK-03); the final has none."""
    round_ = (
        Round.objects.select_for_update().select_related("session__competition").get(pk=round.pk)
    )
    ensure_open(round_.session.competition)
    if round_.session.kind == Session.Kind.FINAL:
        raise refuse(FINAL_HAS_NO_CLOCK, code="final_has_no_clock")
    if round_.started_at:
        raise refuse(CLOCK_RUNNING, error_class=Conflict, code="clock_running", round=round_.number)
    round_.started_at = now or timezone.now()
    round_.save(update_fields=["started_at"])
    Game.objects.filter(round=round_, status=Game.Status.PENDING).update(status=Game.Status.PLAYING)
    competition_touch(round_.session.competition)
    return round_
