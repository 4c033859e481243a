"""The core's hooks: what the layered core of ``events`` (entries, check-in, games, corrections,
the demo) asks of every format, each with a default that works. A format subclasses
:class:`FormatHooks` in its ``hooks.py`` and overrides what it does differently.

What a capability asks (the series, the calendar, sign-up sessions, the read API, downloads,
results players enter) is not here: each capability declares its own protocol in its room's
``contract.py`` and the format's hooks class implements the ones it takes part in
(``events.formats.registry.part``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from events.models import Competition, Correction, Entry, Game


@dataclass(frozen=True)
class PeriodicWork:
    """Work that time alone makes due, run by the workers (``manage.py worker``) once per
    ``every`` however many of them run. ``run(now)`` is idempotent (a second run finds nothing
    to do) and returns a line for the log. A job at a known instant (a turn's deadline) is
    better scheduled for that instant; periodic work is what catches everything else."""

    name: str  # unique across the site, "<format key>:<what>"
    every: timedelta
    run: Callable[[datetime], str]


class FormatHooks:
    """What the core asks of a format, each with a default."""

    # Seat score and points come from a detail table (a Blokus hand): the Seat admin shows them.
    derived_seat_scores: bool = False
    # While a competition runs, withdrawing a player changes its games, so the format's own
    # page (URL name taking event_slug, competition_slug, entry_id) does it instead of the desk.
    running_withdraw_url: str = ""

    def demo(self, organiser: User) -> Competition | None:
        """A demo competition with players and games (``manage.py load_demo``), or None: the
        demo, the screen tests and the fuzz tests then build a bare competition instead."""
        return None

    def periodic(self) -> Sequence[PeriodicWork]:
        """The format's periodic work (the round robin's deadlines and reminders). By default
        none: Blokus and sjoelen have nothing that time alone changes."""
        return ()

    def games_changed(self, competitions: Sequence[Competition]) -> None:
        """Their games changed other than by a result (the first day moved, an import, a merged
        player); inside the write's transaction. By default nothing."""

    def entry_check(self, competition: Competition) -> None:
        """Raise ``events.errors.Refused`` (saying why) when the format takes no new entry or
        check-in now (a drawn round robin). Registration, check-in and import call it."""

    def check_in_changed(self, entry: Entry) -> None:
        """``entry`` was checked in or its check-in undone (``entry.checked_in_at``), inside the
        write's transaction: tell whom it concerns (sjoelen's boards). By default nothing."""

    def correct_seats(
        self,
        *,
        game: Game,
        values: Mapping[int, Mapping[str, Any]],
        by: User | None,
        confirmed: bool = True,
    ) -> None:
        """For formats whose results live on the shared Seat rows (``values``: seat pk ->
        {"score", "points", "colour"}): validate through the rules (raising
        ``events.errors.Invalid`` with a field-level message), apply, recompute everything
        downstream, record the Correction and bump versions. ``confirmed``: the admin ticked
        the box that confirms a change the format warns about (refused with a warning if not).
        The shared Game/Seat admin calls it instead of saving seats itself, when the format
        overrides it (``corrects_seats``)."""
        raise NotImplementedError

    def undo_correction(self, correction: Correction, by: User) -> None:
        """Put back the result a Correction replaced, through the format's own services (which
        record the undo as a correction); the desk refuses it when not overridden."""
        raise NotImplementedError

    def corrects_seats(self) -> bool:
        return type(self).correct_seats is not FormatHooks.correct_seats

    def undoes_corrections(self) -> bool:
        return type(self).undo_correction is not FormatHooks.undo_correction
