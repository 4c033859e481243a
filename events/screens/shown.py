"""What a paired screen shows, carried on the request from the screen's address to the format's
own screen page (``GameFormat.screen``), which draws it through
``events.live.screen.screen_context``: the format answers with its pages as ever, each with a
``kind``, and the desk's choice picks among them. No format is asked anything new.

Only the standard library and the room's choices: the live machinery imports this module.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

from events.screens.models import Shows

ATTRIBUTE = "paired_screen"
# Drawn by this room in place of the format's pages (templates/events/screens/_<kind>.html).
OWN = (Shows.CLOCK, Shows.ANNOUNCEMENT, Shows.SIGN_UP)
OF_THE_FORMAT = (Shows.STANDINGS, Shows.SEATING, Shows.ROTA)


class HasKind(Protocol):
    @property
    def kind(self) -> str: ...


K = TypeVar("K", bound=HasKind)


@dataclass(frozen=True)
class Shown:
    """A paired screen's choice as the desk made it. ``round_over`` says, when asked (at a
    render, never for a 304), whether the chosen round's seating is past."""

    shows: str
    announcement: str = ""
    paused: bool = False
    sign_up_url: str = ""
    round_over: Callable[[], bool] = field(default=lambda: False, compare=False)

    def now(self) -> str:
        """The choice still valid now: a seating whose round is played out (or gone) gives
        the standings."""
        if self.shows == Shows.SEATING and self.round_over():
            return Shows.STANDINGS
        return self.shows


def pages_for(shows: str, pages: Sequence[K]) -> list[K]:
    """The format's pages the choice keeps: those of its kind; else the standings; else all of
    them (the cycle), so that a screen never goes blank for a page its format does not have."""
    if shows in OWN:
        return []
    if shows in OF_THE_FORMAT:
        for kind in (shows, Shows.STANDINGS):
            chosen = [page for page in pages if page.kind == kind]
            if chosen:
                return chosen
    return list(pages)


def template_for(shows: str) -> str:
    """The room's template drawn in place of the format's pages, or "" for the format's own."""
    return f"events/screens/_{shows}.html" if shows in OWN else ""
