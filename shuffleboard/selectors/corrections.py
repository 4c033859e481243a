"""What a correction would change (A-SJ-13), and the correction trail the pages show."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.humanize.templatetags.humanize import ordinal
from django.db.models import Exists, OuterRef, QuerySet
from django.utils.translation import gettext as _

from events.models import Competition, Correction, Entry
from events.selectors import with_public_texts
from shuffleboard import rules
from shuffleboard.selectors.standings import (
    EntryFacts,
    GameRow,
    counted_scores,
    entry_facts,
    game_rows,
    shown_entries,
)


@dataclass(frozen=True)
class PlaceMove:
    """A player who leaves or joins 1st place by a correction."""

    name: str
    before: int | None
    after: int | None

    def __str__(self) -> str:
        if self.before is None or self.after is None:
            return _("%(name)s: 1st place changes") % {"name": self.name}
        return _("%(name)s moves from %(before)s to %(after)s") % {
            "name": self.name,
            "before": ordinal(self.before),
            "after": ordinal(self.after),
        }


def standings_final(
    competition: Competition, entries: Sequence[EntryFacts], rows: list[GameRow]
) -> bool:
    """Finished, or every checked-in player still playing has all games entered."""
    if competition.is_finished:
        return True
    games = competition.options.games
    entered: dict[int, set[int]] = defaultdict(set)
    for row in rows:
        entered[row.entry_id].add(row.number)
    playing = [e for e in entries if e.is_checked_in]
    return bool(playing) and all(set(range(1, games + 1)) <= entered[e.pk] for e in playing)


def first_place_moves(
    competition: Competition,
    *,
    remove: Sequence[tuple[int, int]] = (),
    put: tuple[int, int, int] | None = None,
) -> list[PlaceMove]:
    """What a correction does to 1st place once the standings are final (A-SJ-13): [] when
    nothing to warn about. ``remove`` are (entry, number) of the games as stored, ``put`` is
    (entry, number, score) of the game as corrected (None when it is removed). Two queries."""
    entries = entry_facts(competition)
    rows = game_rows(competition)
    if not standings_final(competition, entries, rows):
        return []
    options = competition.options
    shown = shown_entries(entries, rows)
    before = counted_scores(rows)
    after = {pk: dict(games) for pk, games in before.items()}
    for entry_id, number in remove:
        after.get(entry_id, {}).pop(number, None)
    if put is not None:
        after.setdefault(put[0], {})[put[1]] = put[2]
        if put[0] not in shown:
            return []

    def ranked(scores: dict[int, dict[int, int]]) -> list[tuple[int, int]]:
        return rules.rank(
            {pk: list(scores.get(pk, {}).values()) for pk in shown},
            by_average=options.by_average,
            tiebreaks=options.tiebreak_chain,
        )

    moves = rules.first_place_moves(ranked(before), ranked(after))
    return [PlaceMove(shown[pk].name, old, new) for pk, old, new in moves]


def _with_undone(queryset: QuerySet[Correction]) -> QuerySet[Correction]:
    return (
        queryset.select_related("entry__player", "corrected_by")
        .annotate(is_undone=Exists(Correction.objects.filter(reverts=OuterRef("pk"))))
        .order_by("-created_at", "-pk")
    )


CORRECTIONS_SHOWN = 20


def corrections_of_entry(entry: Entry, limit: int = CORRECTIONS_SHOWN) -> list[Correction]:
    """A player's corrections, newest first, with who and whether undone (two queries)."""
    return with_public_texts(list(_with_undone(Correction.objects.filter(entry=entry))[:limit]))


def corrections_of_game(entry: Entry, number: int) -> list[Correction]:
    """The corrections of one game of one player, newest first (two queries)."""
    queryset = Correction.objects.filter(entry=entry, payload__number=number)
    return with_public_texts(list(_with_undone(queryset)[:CORRECTIONS_SHOWN]))


def corrections_of_competition(
    competition: Competition, limit: int = CORRECTIONS_SHOWN
) -> list[Correction]:
    rows = list(_with_undone(Correction.objects.filter(competition=competition))[:limit])
    return with_public_texts(rows)
