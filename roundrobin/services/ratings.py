"""Ratings (RULES.md §5, R-RR-25): the competition's rating log, recomputed from a moment on.

Every finished rated game changes both players' ratings at once, with the ratings at completion
time and each player's own K. The log (``RatingChange``) is recomputed from the first game whose
result changed, in finish order (``ended_at``, then game id), starting from the rating snapshot
taken at the start plus the earlier changes of this competition. ``Player.rating`` and
``Player.rated_games`` move by the difference between the new and the old log, so changes made
by other competitions in the meantime are kept. A correction of an earlier result therefore
re-applies every later change of this competition consistently (ratings earned elsewhere during
the event are not fed back into this event's expectations: this competition's chain starts from
its snapshot).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import Case, F, Q, When
from django.utils import timezone
from simple_history.utils import bulk_create_with_history

from events.models import Competition, Entry, Player
from events.services import editing as events_editing
from events.versions import versions_bump
from roundrobin import rules
from roundrobin.models import GameDetail, RatingChange, RatingSnapshot
from roundrobin.services.base import decimal, options


@dataclass
class RatingChain:
    """Each entry's rating, rated games and peak as the log stands at one moment."""

    snapshots: dict[int, RatingSnapshot]
    rating: dict[int, int] = field(default_factory=dict)
    games: dict[int, int] = field(default_factory=dict)
    peak: dict[int, int] = field(default_factory=dict)

    @classmethod
    def start(cls, snapshots: dict[int, RatingSnapshot]) -> RatingChain:
        rating = {pk: s.rating for pk, s in snapshots.items()}
        games = {pk: s.rated_games for pk, s in snapshots.items()}
        return cls(snapshots, rating, games, dict(rating))

    def apply(self, entry_id: int, change: int) -> None:
        self.rating[entry_id] += change
        self.games[entry_id] += 1
        self.peak[entry_id] = max(self.peak[entry_id], self.rating[entry_id])

    def k(self, entry_id: int) -> int:
        reached = self.peak[entry_id] >= rules.MASTER_RATING
        return rules.k_factor(self.rating[entry_id], self.games[entry_id], reached)


def _totals(changes: list[RatingChange]) -> tuple[dict[int, int], dict[int, int]]:
    delta: dict[int, int] = defaultdict(int)
    count: dict[int, int] = defaultdict(int)
    for change in changes:
        delta[change.entry_id] += change.change
        count[change.entry_id] += 1
    return delta, count


def _game_changes(
    competition: Competition, detail: GameDetail, chain: RatingChain
) -> list[RatingChange]:
    """Both players' changes for one finished rated game, applied to ``chain``."""
    seats = sorted(detail.game.seats.all(), key=lambda seat: seat.position)
    if len(seats) != 2 or seats[0].points is None or detail.ended_at is None:
        return []
    a, b = seats[0].entry_id, seats[1].entry_id
    if a not in chain.snapshots or b not in chain.snapshots:
        return []
    if seats[1].points is None:
        return []
    try:  # stored seats that hold no result (a raw fix) are skipped; the desk flags the game
        score, _other = rules.check_result(seats[0].points, seats[1].points)
    except rules.InvalidResult:
        return []
    ka, kb = chain.k(a), chain.k(b)
    da, db = rules.rating_changes(chain.rating[a], chain.rating[b], score, ka, kb)
    changes = []
    for pk, opponent, own_score, delta, k in ((a, b, score, da, ka), (b, a, 1 - score, db, kb)):
        before = chain.rating[pk]
        after = max(0, before + delta)
        changes.append(
            RatingChange(
                competition=competition,
                game_id=detail.game_id,
                entry_id=pk,
                player_id=chain.snapshots[pk].entry.player_id,
                opponent_rating=chain.rating[opponent],
                score=decimal(own_score),
                before=before,
                after=after,
                change=after - before,
                k=k,
                at=detail.ended_at,
            )
        )
    for change in changes:
        chain.apply(change.entry_id, change.change)
    return changes


def _new_changes(
    competition: Competition, since: datetime, chain: RatingChain
) -> list[RatingChange]:
    if not options(competition).rated:
        return []
    details = (
        GameDetail.objects.filter(
            game__round__session__competition=competition, rated=True, ended_at__gte=since
        )
        .order_by("ended_at", "game_id")
        .prefetch_related("game__seats")
    )
    changes: list[RatingChange] = []
    for detail in details:
        changes.extend(_game_changes(competition, detail, chain))
    return changes


def ratings_recompute(competition: Competition, since: datetime) -> None:
    """Recompute this competition's rating log from ``since`` on (see the module docstring)."""
    snapshots = {
        s.entry_id: s
        for s in RatingSnapshot.objects.filter(entry__competition=competition).select_related(
            "entry"
        )
    }
    chain = RatingChain.start(snapshots)
    old: list[RatingChange] = []
    for change in RatingChange.objects.filter(competition=competition).order_by("at", "game_id"):
        if change.at < since:
            chain.apply(change.entry_id, change.change)
        else:
            old.append(change)
    RatingChange.objects.filter(competition=competition, at__gte=since).delete()
    new = _new_changes(competition, since, chain)
    bulk_create_with_history(new, RatingChange, default_change_reason=RECOMPUTED)
    _history_of_deleted(old)
    _players_update(competition, snapshots, old, new)


RECOMPUTED = "recomputed"
RATED = events_editing.RATED


def _history_of_deleted(old: list[RatingChange]) -> None:
    """The rating log keeps its history: each replaced change gets a "deleted" record (the
    new ones get "created" records), so a correction's effect on ratings can be traced."""
    if not old:
        return
    history = RatingChange.history.model
    now = timezone.now()
    names = [field.attname for field in RatingChange._meta.concrete_fields]
    history.objects.bulk_create(
        history(
            history_date=now,
            history_type="-",
            history_change_reason=RECOMPUTED,
            **{name: getattr(change, name) for name in names},
        )
        for change in old
    )


def _players_update(
    competition: Competition,
    snapshots: dict[int, RatingSnapshot],
    old: list[RatingChange],
    new: list[RatingChange],
) -> None:
    """Move each player's rating and rated games by the difference between the two logs."""
    old_delta, old_count = _totals(old)
    new_delta, new_count = _totals(new)
    moves: dict[int, tuple[int, int]] = {}
    for pk in set(old_delta) | set(new_delta):
        delta = new_delta[pk] - old_delta[pk]
        count = new_count[pk] - old_count[pk]
        if delta or count:
            moves[snapshots[pk].entry.player_id] = (delta, count)
    if moves:  # one UPDATE for every player moved (a sweep may move a hundred)
        Player.objects.filter(pk__in=moves).update(
            rating=Case(
                *(When(pk=pk, then=F("rating") + delta) for pk, (delta, _) in moves.items())
            ),
            rated_games=Case(
                *(When(pk=pk, then=F("rated_games") + n) for pk, (_, n) in moves.items())
            ),
        )
        _history_of_rated(set(moves))
    _touch_other_competitions(competition, set(moves))


def _history_of_rated(player_ids: set[int]) -> None:
    """A history record for each player whose rating the games moved (the update above writes
    none), with no user and the reason RATED: the desk's history of a player then shows the
    move as the rated games', not as part of the next organiser's edit."""
    history = Player.history.model
    now = timezone.now()
    names = [field.attname for field in Player._meta.concrete_fields]
    history.objects.bulk_create(
        history(
            history_date=now,
            history_type="~",
            history_change_reason=RATED,
            **{name: getattr(player, name) for name in names},
        )
        for player in Player.objects.filter(pk__in=player_ids)
    )


def _touch_other_competitions(competition: Competition, player_ids: set[int]) -> None:
    """Bump the version of every other competition these players are entered in (any format,
    any status): their public pages show the players' ratings, which just changed, and must
    not answer 304 with the old ones. What ``competition_touch`` does, for all of them in two
    queries instead of two per competition."""
    if not player_ids:
        return
    others = (
        Entry.objects.filter(player_id__in=player_ids)
        .exclude(competition=competition)
        .values("competition_id")
    )
    versions_bump(competitions=Q(pk__in=others))
