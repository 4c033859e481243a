"""Players: the start preview, a player's page, ratings, withdrawals, private links."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, Exists, OuterRef, Sum
from django.http import Http404

from events.models import Competition, CompetitionStatus, Correction, Entry
from events.selectors import with_public_texts
from roundrobin import rules
from roundrobin.models import RatingChange, RatingSnapshot, Withdrawal
from roundrobin.selectors.clock import clock_views, turn_hours
from roundrobin.selectors.table_views import GameView, Row, TableView, one_to_one
from roundrobin.selectors.tables import table_of_entry

# --- Before the start --------------------------------------------------------------------------


@dataclass
class PreviewRow:
    entry: Entry
    seed: int

    @property
    def provisional(self) -> bool:
        return rules.is_provisional(self.entry.player.rated_games)


def start_candidates(competition: Competition) -> list[Entry]:
    """The checked-in, not withdrawn entries, strongest first (A-RR-07). One query."""
    entries = list(
        Entry.objects.filter(
            competition=competition, checked_in_at__isnull=False, withdrawn_at__isnull=True
        ).select_related("player")
    )
    by_pk = {entry.pk: entry for entry in entries}
    order = rules.seed_order(
        (e.pk, e.player.rating, e.player.rated_games, e.registered_at) for e in entries
    )
    return [by_pk[pk] for pk in order]


def start_preview(competition: Competition) -> tuple[list[list[PreviewRow]], str]:
    """The tables a start would draw now, and a reason when it cannot start ("" when it can)."""
    entries = start_candidates(competition)
    try:
        tables = rules.split_into_tables(
            [e.pk for e in entries], competition.options.max_table_size
        )
    except rules.InvalidResult as exc:
        return [], str(exc)
    seeds = {entry.pk: (index, entry) for index, entry in enumerate(entries, start=1)}
    return [[PreviewRow(seeds[pk][1], seeds[pk][0]) for pk in table] for table in tables], ""


# --- A player, ratings -------------------------------------------------------------------------


def entry_in_competition(competition: Competition, entry_id: int | str) -> Entry:
    try:
        pk = int(entry_id)
    except (TypeError, ValueError) as exc:
        raise Http404 from exc
    entry = (
        Entry.objects.filter(competition=competition, pk=pk)
        .select_related("player", "rr_snapshot", "rr_withdrawal")
        .first()
    )
    if entry is None:
        raise Http404
    return entry


def table_entry_or_404(competition: Competition, entry_id: int) -> Entry:
    """An entry of this competition that plays at a table (withdrawals start here)."""
    entry = entry_in_competition(competition, entry_id)
    if one_to_one(entry, "rr_snapshot") is None:
        raise Http404
    return entry


@dataclass
class PlayerPage:
    entry: Entry
    snapshot: RatingSnapshot | None
    withdrawal: Withdrawal | None
    table: TableView | None
    games: list[GameView]
    history: list[RatingChange]
    corrections: list[Correction] = dataclasses.field(default_factory=list)

    @property
    def row(self) -> Row | None:
        if self.table is None:
            return None
        return next((r for r in self.table.rows if r.entry.pk == self.entry.pk), None)

    @property
    def event_change(self) -> int:
        return sum(
            change.change
            for change in self.history
            if change.competition_id == self.entry.competition_id
        )


def player_page(competition: Competition, entry_id: int | str) -> PlayerPage:
    """A player's games at their table (tiebreaks included), rating history and the
    corrections of their games' results. Five queries."""
    entry = entry_in_competition(competition, entry_id)
    table = table_of_entry(competition, entry)
    games = table.games_of(entry.pk) if table is not None else []
    history = list(
        RatingChange.objects.filter(player=entry.player_id)
        .select_related("competition__event")
        .order_by("at", "game_id")
    )
    snapshot = one_to_one(entry, "rr_snapshot")
    corrections = corrections_of_games(competition, [g.pk for g in games]) if games else []
    return PlayerPage(
        entry, snapshot, one_to_one(entry, "rr_withdrawal"), table, games, history, corrections
    )


TRAIL_LENGTH = 50


def corrections_of_games(competition: Competition, game_ids: list[int]) -> list[Correction]:
    """The corrections of these games' results, newest first, each marked ``is_undone`` and
    with its ``public`` texts (two queries). A round-robin correction names its game in
    ``payload["game"]``."""
    if not game_ids:
        return []
    return with_public_texts(
        list(
            Correction.objects.filter(competition=competition, payload__game__in=game_ids)
            .select_related("entry__player", "corrected_by")
            .annotate(is_undone=Exists(Correction.objects.filter(reverts=OuterRef("pk"))))
            .order_by("-created_at", "-pk")[:TRAIL_LENGTH]
        )
    )


@dataclass
class RatingRow:
    snapshot: RatingSnapshot
    change: int
    games: int

    @property
    def entry(self) -> Entry:
        return self.snapshot.entry


def ratings_for_competition(competition: Competition) -> list[RatingRow]:
    """Every player at a table: rating at the start, now, and this event's change. Two queries."""
    totals = {
        row["entry"]: (row["total"], row["games"])
        for row in RatingChange.objects.filter(competition=competition)
        .values("entry")
        .annotate(total=Sum("change"), games=Count("pk"))
    }
    snapshots = RatingSnapshot.objects.filter(entry__competition=competition).select_related(
        "entry__player"
    )
    rows = [RatingRow(snapshot, *totals.get(snapshot.entry_id, (0, 0))) for snapshot in snapshots]
    return sorted(rows, key=lambda r: (-r.entry.player.rating, r.snapshot.seed))


# --- Withdrawal --------------------------------------------------------------------------------

Fates = list[tuple[GameView, str]]


def withdrawal_outlook(entry: Entry, now: datetime | None = None) -> tuple[str, int, int, Fates]:
    """What withdrawing ``entry`` would do: (effect, finished, scheduled, [(game, fate)]).

    Fates: rules.STRUCK, STANDS, FORFEITED for regular games (R-RR-23); an open tiebreak game
    is FORFEITED (A-RR-13 f). Finished = has a result (played, time loss, double forfeit); a
    game cancelled by an opponent's withdrawal is not finished (A-RR-13 b). With ``now`` the
    clocks are projected to that moment (one more query), so that a time loss whose deadline
    has passed but that ``process_deadlines`` has not written yet counts as finished, as it
    will when the withdrawal is applied (``services.entry_withdraw`` writes the clock first).
    """
    table = table_of_entry(entry.competition, entry)
    if table is None:  # only entries at a table can withdraw from one
        raise Http404
    mine = [g for g in table.games if g.plays(entry.pk)]
    tiebreaks = [g for stage in table.stages for g in stage.games if g.plays(entry.pk)]
    if now is not None:
        open_games = [g for g in mine + tiebreaks if not g.detail.is_over]
        clock_views(open_games, now, turn_hours(entry.competition), competition=entry.competition)

    def done(view: GameView) -> bool:
        if view.detail.has_result:
            return True
        clock = view.clock
        return clock is not None and not view.detail.is_over and clock.outcome is not None

    plan = rules.withdrawal_plan({g.pk: done(g) for g in mine})
    finished = sum(1 for g in mine if done(g))
    effect = rules.withdrawal_effect(finished, len(mine))
    fates = [(g, plan[g.pk]) for g in mine]
    for g in tiebreaks:
        fates.append((g, rules.STANDS if g.detail.is_over or done(g) else rules.FORFEITED))
    return effect, finished, len(mine), fates


def withdrawal_signature(effect: str, finished: int, fates: Fates) -> str:
    """What a withdrawal preview showed, in a form field: the desk posts it back and the
    service refuses when the same withdrawal would now do something else (stale preview)."""
    games = ",".join(f"{view.pk}={fate}" for view, fate in sorted(fates, key=lambda f: f[0].pk))
    return f"{effect}:{finished}:{games}"


@dataclass
class WithdrawPage:
    entry: Entry
    withdrawal: Withdrawal | None
    outlook: dict[str, object] | None


def withdraw_page(competition: Competition, entry: Entry, now: datetime) -> WithdrawPage:
    """The desk's withdrawal page: done already, or what it would do now (with its signature)."""
    withdrawal = one_to_one(entry, "rr_withdrawal")
    outlook = None
    if withdrawal is None and competition.status == CompetitionStatus.RUNNING:
        effect, finished, scheduled, fates = withdrawal_outlook(entry, now)
        outlook = {
            "effect": effect,
            "finished": finished,
            "scheduled": scheduled,
            "fates": fates,
            "signature": withdrawal_signature(effect, finished, fates),
        }
    return WithdrawPage(entry, withdrawal, outlook)


# --- Private links -----------------------------------------------------------------------------


@dataclass
class LinkRow:
    entry: Entry
    token: str
    table: int | None
    url: str = ""
    qr: str = ""


def private_links(competition: Competition) -> list[LinkRow]:
    """Every player at a table with their private link, by table and seed. One query."""
    entries = (
        Entry.objects.filter(competition=competition, rr_token__isnull=False)
        .select_related("player", "rr_token", "rr_snapshot")
        .order_by("rr_snapshot__table", "rr_snapshot__seed", "pk")
    )
    return [
        LinkRow(e, e.rr_token.token, getattr(one_to_one(e, "rr_snapshot"), "table", None))
        for e in entries
    ]
