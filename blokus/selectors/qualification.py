"""The qualification (points, total score, lot) and the final."""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

from django.db.models import Count, Q
from django.utils.crypto import salted_hmac

from blokus import rules
from blokus.models import QualificationLot, SessionPlayer
from blokus.selectors.tables import GameRow, SeatRow, seat_rows, seats_query
from events.models import Competition, Entry, Game, Seat, Session


@dataclass
class QualificationRow:
    place: int
    entry: Entry
    session_number: int
    points: Fraction
    total: int
    games: int
    tied: bool = False  # equal on points and total with a neighbour: the lot decides
    finalist: bool = False


# The seats the qualification reads: the finished qualifying games' (their points and scores)
# and the final's (who is a finalist); as (entry, points, score, session kind).
QUALIFICATION_SEATS = Q(
    game__round__session__kind=Session.Kind.QUALIFYING, game__status=Game.Status.FINISHED
) | Q(game__round__session__kind=Session.Kind.FINAL)
QUALIFICATION_SEAT_VALUES = ("entry_id", "points", "score", "game__round__session__kind")


def qualification_rows(
    competition: Competition, lot: QualificationLot | None | Literal[False] = False
) -> list[QualificationRow]:
    """Everyone seated in a qualifying session, best first: points, total score, lot (§20-22).

    Three queries. Before the lot is recorded, exact ties keep the order of registration and
    are marked ``tied`` (the lot is drawn when the final is seated).
    """
    if lot is False:
        lot = QualificationLot.objects.filter(competition=competition).first()
    players = list(
        SessionPlayer.objects.filter(
            session__competition=competition,
            session__kind=Session.Kind.QUALIFYING,
            role=SessionPlayer.Role.SEATED,
        )
        .select_related("entry__player", "session")
        .order_by("entry_id")
    )
    seats = Seat.objects.filter(
        QUALIFICATION_SEATS, game__round__session__competition=competition
    ).values_list(*QUALIFICATION_SEAT_VALUES)
    return ranked_qualification(players, seats, lot)


def ranked_qualification(
    players: Iterable[SessionPlayer],
    seats: Iterable[tuple[int, Any, int | None, str]],
    lot: QualificationLot | None,
) -> list[QualificationRow]:
    """``qualification_rows`` from rows already read (no query): one competition's seated
    qualifying players (with entry and session), its ``QUALIFICATION_SEATS`` as
    ``QUALIFICATION_SEAT_VALUES`` and its lot. Apart so that a read of many competitions at once
    (``selectors.series``) ranks each exactly as its own pages do."""
    totals: dict[int, list] = {}
    at_final: set[int] = set()
    for entry_id, seat_points, score, kind in seats:
        if kind == Session.Kind.FINAL:
            at_final.add(entry_id)
            continue
        t = totals.setdefault(entry_id, [Fraction(0), 0, 0])
        t[0] += Fraction(seat_points or 0)
        t[1] += score or 0
        t[2] += 1
    rows = {}
    for p in players:
        points, total, count = totals.get(p.entry_id, (Fraction(0), 0, 0))
        rows[p.entry_id] = QualificationRow(0, p.entry, p.session.number, points, total, count)
    order = list(lot.order) if lot else []
    known = set(order)
    order += [pk for pk in sorted(rows) if pk not in known]
    ranked = rules.rank_standings(
        [(pk, row.points, row.total) for pk, row in rows.items()],
        [pk for pk in order if pk in rows],
    )
    result = [rows[pk] for pk in ranked]
    for index, row in enumerate(result, start=1):
        row.place = index
        key = (row.points, row.total)
        neighbours = result[max(0, index - 2) : index - 1] + result[index : index + 1]
        # Only players who have played can be tied: before a session plays, its players all
        # stand on 0 and 0, which is no tie for the lot to break.
        row.tied = bool(row.games) and any(
            (n.points, n.total) == key and n.games for n in neighbours
        )
    if at_final:  # once the final is seated, its players are the finalists (whatever changed)
        for row in result:
            row.finalist = row.entry.pk in at_final
    else:  # the top four; a withdrawn player is skipped and the next one moves up
        top = set(rules.finalists([row.entry.pk for row in result if not row.entry.withdrawn_at]))
        for row in result:
            row.finalist = row.entry.pk in top
    return result


# --- the final ----------------------------------------------------------------------------------


@dataclass
class FinalView:
    session: Session
    game: GameRow
    placed: list[tuple[int, SeatRow]] = field(default_factory=list)  # winner first, when played
    replays: list[GameRow] = field(default_factory=list)  # among the tied (A-BLK-08's option)

    @property
    def games(self) -> list[GameRow]:
        return [self.game, *self.replays]

    @property
    def first(self) -> list[GameRow]:
        return [self.game]

    @property
    def numbered_replays(self) -> list[tuple[int, list[GameRow]]]:
        """(1, [the first replay]), (2, [the second]), ... for the pages."""
        return [(n, [g]) for n, g in enumerate(self.replays, start=1)]

    @property
    def replay_open(self) -> GameRow | None:
        """The replay waiting for its result, if any."""
        return next((g for g in self.replays if not g.is_finished), None)

    def place_of(self, entry_id: int) -> int | None:
        return next((place for place, s in self.placed if s.entry.pk == entry_id), None)


def final_view(competition: Competition, qualification: list[QualificationRow]) -> FinalView | None:
    """The final's table and, once played, its places (2 queries)."""
    final = (
        Session.objects.filter(competition=competition, kind=Session.Kind.FINAL)
        .order_by("number")
        .first()
    )
    if final is None:
        return None
    return final_of(final, list(seats_query().filter(game__round__session=final)), qualification)


def final_of(
    final: Session, seats: list[Seat], qualification: list[QualificationRow]
) -> FinalView | None:
    """``final_view`` from the final session's seats already read (``seats_query``'s rows and
    order; no query): None while it has none. Apart for reads of many competitions at once."""
    if not seats:
        return None
    rows = seat_rows(seats, {})
    games = [GameRow(game=s.game, seats=rows[s.game_id]) for s in seats if s.position == 1]
    game = games[0]
    view = FinalView(session=final, game=game, replays=games[1:])
    if all(g.is_finished for g in games):
        # A finalist missing from the qualification (an admin edit) ranks after the others.
        order = [row.entry.pk for row in qualification]
        known = set(order)
        order += sorted(s.entry.pk for s in game.seats if s.entry.pk not in known)
        by_entry = {s.entry.pk: s for s in game.seats}
        try:
            ranked = rules.final_places(
                [{s.entry.pk: s.score or 0 for s in g.seats} for g in games], order
            )
        except rules.InvalidResult:
            ranked = []  # not a scorable final (admin edit): show the table without places
        view.placed = [(i, by_entry[pk]) for i, pk in enumerate(ranked, start=1)]
    return view


def competition_lot(competition: Competition) -> QualificationLot | None:
    return QualificationLot.objects.filter(competition=competition).first()


def qualifying_complete(competition: Competition) -> Session | None:
    """The first qualifying session that has not played all its rounds, or None (one query).

    A session declared not held does not count: nobody played in it.
    """
    rounds_per_session = competition.options.rounds_per_session
    sessions = (
        Session.objects.filter(
            competition=competition, kind=Session.Kind.QUALIFYING, blokus_not_held__isnull=True
        )
        .annotate(
            drawn=Count("rounds", distinct=True),
            open_games=Count(
                "rounds__games",
                filter=Q(rounds__games__status__in=[Game.Status.PENDING, Game.Status.PLAYING]),
                distinct=True,
            ),
        )
        .order_by("number")
    )
    for session in sessions:
        if session.drawn < rounds_per_session or session.open_games:
            return session
    return None


# --- the final, before it is seated -------------------------------------------------------------


def lot_entry_ids(competition: Competition) -> list[int]:
    """Who the qualification lot is drawn over: everyone seated in a session, by id."""
    return sorted(
        SessionPlayer.objects.filter(
            session__competition=competition, role=SessionPlayer.Role.SEATED
        ).values_list("entry_id", flat=True)
    )


def final_seeds(competition: Competition, version: int) -> dict[str, int]:
    """The lot's and the colours' seeds for seating the final at this version of the results.

    Derived from the server's secret, the competition and its version: the preview and the
    confirmation draw the same lot and colours, reloading the preview shows the same draw (no
    drawing again until the result suits), and any change to the results draws anew.
    """
    digest = salted_hmac("blokus.final_seeds", f"{competition.pk}:{version}").hexdigest()
    return {"lot_seed": int(digest[:15], 16), "seed": int(digest[15:30], 16)}


@dataclass
class FinalPlan:
    """What "Seat the final" would do now: the finalists and their colours, nothing written."""

    version: int  # the competition's version the plan was drawn at (the stale check)
    qualification: list[QualificationRow]
    finalists: list[QualificationRow]  # seeding order, best qualifier first
    colours: list[tuple[QualificationRow, str]]  # playing order: blue first
    lot_drawn_now: bool  # ties decided by a lot drawn for this plan (recorded on confirming)
    lot: QualificationLot  # the recorded lot, or the one this plan drew (not saved)

    @property
    def lot_seed(self) -> int:
        return self.lot.seed

    @property
    def lot_decides(self) -> bool:
        """Whether a lot placed someone in or next to the top four (worth saying)."""
        return any(row.tied for row in self.qualification[: rules.FINALISTS + 1])


def final_plan(competition: Competition) -> FinalPlan:
    """The preview of the final's seating, drawn as ``final_seat`` will draw it (4 queries)."""
    version = competition.version
    seeds = final_seeds(competition, version)
    lot = competition_lot(competition)
    lot_drawn_now = lot is None
    if lot is None:
        order = rules.lot_order(lot_entry_ids(competition), random.Random(seeds["lot_seed"]))
        lot = QualificationLot(competition=competition, seed=seeds["lot_seed"], order=order)
    rows = qualification_rows(competition, lot)
    top = rules.finalists([row.entry.pk for row in rows if not row.entry.withdrawn_at])
    by_entry = {row.entry.pk: row for row in rows}
    finalists = [by_entry[pk] for pk in top]
    colours: list[tuple[QualificationRow, str]] = []
    if finalists:
        drawn = rules.draw_colours([row.entry for row in finalists], random.Random(seeds["seed"]))
        colours = [(by_entry[entry.pk], colour) for entry, colour in drawn.items()]
    return FinalPlan(
        version=version,
        qualification=rows,
        finalists=finalists,
        colours=colours,
        lot_drawn_now=lot_drawn_now,
        lot=lot,
    )
