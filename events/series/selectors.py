"""Reads of series: the standings with "which events counted, and why", a player's page, the
recent corrections of the series' competitions. A constant number of queries whatever the
number of events and players (the format gives all its competitions' results in one hook call,
``events.series.contract.SeriesResults``)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.core.cache import cache
from django.db.models import Exists, OuterRef, Q
from django.http import Http404
from django.shortcuts import get_object_or_404

from events.formats import part
from events.models import ClubRole, Competition, Correction, EventRole, Player
from events.rules import series as rules
from events.selectors import with_public_texts
from events.series.contract import SeriesResult, SeriesResults
from events.series.models import Series, SeriesCompetition

TRAIL_LENGTH = 10
RESULTS_PREFIX = "series:r1"  # a new prefix whenever what is stored changes
RESULTS_SECONDS = 24 * 3600
logger = logging.getLogger(__name__)
CLASSES = ("A", "B", "C")


@dataclass(frozen=True)
class Used:
    """One result of a player as the series used it."""

    member: SeriesCompetition
    counted: rules.Counted
    # "average" series: the player's season average (the night's is compared with it)
    season: Fraction | None = None

    @property
    def average(self) -> Fraction | None:
        result = self.counted.result
        return Fraction(result.total, result.games) if result.games else None

    @property
    def against_average(self) -> Fraction | None:
        """The result's average per game against the player's season average ("average"
        series), computed when a page shows it."""
        return None if self.season is None else against(self.counted.result, self.season)


@dataclass(frozen=True)
class Line:
    """One row of the series standings."""

    player: Player
    place: int | None
    shared: bool
    value: Fraction
    used: tuple[Used, ...]
    series_class: str = ""

    @property
    def counted(self) -> int:
        return sum(1 for u in self.used if u.counted.counted)

    @property
    def ranked(self) -> bool:
        return self.place is not None


@dataclass
class Table:
    series: Series
    members: list[SeriesCompetition]
    lines: list[Line] = field(default_factory=list)

    @property
    def ranked(self) -> list[Line]:
        return [line for line in self.lines if line.ranked]

    @property
    def unranked(self) -> list[Line]:
        return [line for line in self.lines if not line.ranked]

    def classes(self) -> list[tuple[str, list[Line]]]:
        """The ranked lines per class (A, B, C; only classes with players), when the series
        sets class limits."""
        if self.series.class_a is None:
            return []
        groups = [
            (name, [line for line in self.ranked if line.series_class == name]) for name in CLASSES
        ]
        return [(name, lines) for name, lines in groups if lines]

    def class_tables(self) -> list[tuple[str, list[tuple[int, bool, Line]]]]:
        """Each class's own standings: (class, [(place in the class, shared, line)]). Players
        sharing a place in the series share it in their class too."""
        tables = []
        for name, lines in self.classes():
            places: list[int] = []
            for index, line in enumerate(lines):
                same = index and line.place == lines[index - 1].place
                places.append(places[-1] if same else index + 1)
            rows = [
                (place, places.count(place) > 1, line)
                for place, line in zip(places, lines, strict=True)
            ]
            tables.append((name, rows))
        return tables


def series_public() -> list[Series]:
    """The listed series, newest first (one query)."""
    return list(Series.objects.filter(is_public=True).order_by("-created_at", "name"))


def series_by_slug(slug: str) -> Series:
    return get_object_or_404(Series, slug=slug)


def series_members(series: Series) -> list[SeriesCompetition]:
    """The series' competitions in the order of their events (one query)."""
    return list(
        SeriesCompetition.objects.filter(series=series)
        .select_related("competition__event")
        .order_by("competition__event__starts_on", "competition__created_at", "competition__pk")
    )


def class_of(value: Fraction, series: Series) -> str:
    if series.class_a is None or series.class_b is None:
        return ""
    if value >= series.class_a:
        return "A"
    return "B" if value >= series.class_b else "C"


def series_table(series: Series, members: Sequence[SeriesCompetition] | None = None) -> Table:
    """The standings: ranked players, then those short of ``min_events``; every result with
    its worth and whether it counted (three queries, plus the format's own)."""
    members = list(members) if members is not None else series_members(series)
    table = Table(series, members)
    if not members:
        return table
    order = {m.competition_id: index for index, m in enumerate(members)}
    by_competition = {m.competition_id: m for m in members}
    found = competition_results(series.format, members)
    results = [
        rules.Result(
            player=r.player_id,
            event=order[r.competition_id],
            place=r.place,
            field=r.field,
            points=Fraction(r.points),
            total=r.total,
            games=r.games,
            final=by_competition[r.competition_id].is_final,
        )
        for r in found
        if r.competition_id in order
    ]
    rows = rules.standings(results, series.formula())
    players = Player.objects.in_bulk({row.player for row in rows})
    member_at = {index: m for m, index in ((m, order[m.competition_id]) for m in members)}
    for row in rows:
        player = players.get(row.player)
        if player is None:
            continue
        season = row.value if series.kind == "average" else None
        used = tuple(Used(member_at[c.result.event], c, season) for c in row.results)
        table.lines.append(
            Line(player, row.place, row.shared, row.value, used, class_of(row.value, series))
        )
    return table


def results_key(member: SeriesCompetition) -> str:
    competition = member.competition
    made = int(competition.created_at.timestamp() * 1_000_000)
    return f"{RESULTS_PREFIX}:{competition.pk}.{made}.{competition.version}"


def competition_results(
    format_key: str, members: Sequence[SeriesCompetition]
) -> list[SeriesResult]:
    """The members' results from the format, each competition's kept in the shared cache under
    its version: after a write only the competition written to is read again (the others come
    in one cache round trip). The key holds the version read with the membership, before the
    format's reads, so what it stores is at least that new. A cache that is down is a miss."""
    keys = {results_key(m): m for m in members}
    try:
        cached: dict[str, Any] = cache.get_many(list(keys))
    except Exception:  # the cache is an optimisation, never an error
        logger.warning("series cache unavailable (get_many)", exc_info=True)
        cached = {}
    missing = [m for key, m in keys.items() if not isinstance(cached.get(key), list)]
    taking_part = part(format_key, SeriesResults)
    fresh = (
        taking_part.series_results([m.competition for m in missing])
        if missing and taking_part is not None
        else []
    )
    by_competition: dict[int, list[SeriesResult]] = {m.competition_id: [] for m in missing}
    for result in fresh:
        by_competition.setdefault(result.competition_id, []).append(result)
    if missing:
        try:
            cache.set_many(
                {results_key(m): by_competition[m.competition_id] for m in missing}, RESULTS_SECONDS
            )
        except Exception:
            logger.warning("series cache unavailable (set_many)", exc_info=True)
    found = [
        r
        for key, m in keys.items()
        if key in cached and isinstance(cached[key], list)
        for r in cached[key]
    ]
    return found + fresh


def against(result: rules.Result, season: Fraction) -> Fraction | None:
    """A night's average per game minus the player's season average."""
    if not result.games:
        return None
    return Fraction(result.total, result.games) - season


def line_of(table: Table, player_id: int) -> Line:
    """One player's line; 404 for a player not in the series."""
    for line in table.lines:
        if line.player.pk == player_id:
            return line
    raise Http404


def corrections_of_series(members: Sequence[SeriesCompetition], limit: int = TRAIL_LENGTH) -> list:
    """The latest corrections in the series' competitions, newest first (two queries)."""
    if not members:
        return []
    competitions = [m.competition_id for m in members]
    return trail(Correction.objects.filter(competition_id__in=competitions), limit)


def corrections_of_line(line: Line, limit: int = TRAIL_LENGTH) -> list:
    """The latest corrections of the player's results on their series page (every result the
    series weighed, counted or not: a correction may be what dropped one), newest first (two
    queries, none without results)."""
    competitions = [used.member.competition_id for used in line.used]
    if not competitions:
        return []
    return trail(
        Correction.objects.filter(competition_id__in=competitions, entry__player=line.player),
        limit,
    )


def trail(corrections: Any, limit: int = TRAIL_LENGTH) -> list:
    """``corrections`` as the trail shows them: the newest ``limit``, with their competition's
    event and the texts public pages show."""
    return with_public_texts(
        list(
            corrections.select_related("entry__player", "competition__event", "corrected_by")
            .annotate(is_undone=Exists(Correction.objects.filter(reverts=OuterRef("pk"))))
            .order_by("-created_at", "-pk")[:limit]
        )
    )


def series_of_user(user: Any) -> list[Series]:
    """The series a user organises, there or as an owner or organiser of the hosting club (a
    superuser: all), newest first (one query)."""
    if user.is_superuser:
        return list(Series.objects.order_by("-created_at"))
    managers = Q(host__roles__user=user, host__roles__role__in=ClubRole.MANAGERS)
    return list(
        Series.objects.filter(Q(organisers=user) | managers).distinct().order_by("-created_at")
    )


def joinable_competitions(series: Series, user: Any) -> list:
    """Competitions of the series' format at events the user manages, not in the series yet
    (one query)."""
    queryset = Competition.objects.filter(format=series.format, event__host=series.host_id).exclude(
        series_memberships__series=series
    )
    if not user.is_superuser:
        at_event = Q(event__roles__user=user, event__roles__role__in=EventRole.MANAGERS)
        at_club = Q(event__host__roles__user=user, event__host__roles__role__in=ClubRole.MANAGERS)
        queryset = queryset.filter(at_event | at_club)
    return list(queryset.select_related("event").order_by("-event__starts_on", "name").distinct())
