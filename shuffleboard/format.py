"""Sjoelen (Dutch shuffleboard) as a format of the shared events app: its settings and its plug.

The app is called ``shuffleboard`` (the product's name for it); everything people read, URLs
included, says sjoelen.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from events.formats import GameFormat
from shuffleboard import rules

RANK_BY_TOTAL, RANK_BY_AVERAGE = "total", "average"
TIES_COUNT_BACK, TIES_BEST_GAME, TIES_SHARE = "count_back", "best_game", "none"


@dataclass(frozen=True)
class SjoelenSettings:
    """A sjoelen competition's settings; these defaults are the only ones (the form reads them)."""

    games: int = 10  # per player, summed (usually 5, 10 or 20)
    boards: int = 4
    bonus_disc: bool = False  # A-SJ-04
    ranking: str = RANK_BY_TOTAL  # or RANK_BY_AVERAGE
    tiebreaks: str = TIES_COUNT_BACK  # or TIES_BEST_GAME, TIES_SHARE
    title_playoff: bool = False  # A-SJ-16: a shared 1st place plays off (off: it stays shared)
    classes: bool = False  # A-SJ-17: standings grouped in classes A, B, C by average
    class_a: int = 120  # average per game from which a player is in class A
    class_b: int = 100  # ... in class B; below it, class C
    results_from_players: bool = False  # players enter games at the board, on their phones
    seating_apart: str = "off"  # or "every_round": boards keep clubs and groups apart

    @property
    def by_average(self) -> bool:
        return self.ranking == RANK_BY_AVERAGE

    @property
    def tiebreak_chain(self) -> tuple[str, ...]:
        """The leading part of ``rules.TIEBREAKS`` that the ``tiebreaks`` setting stands for."""
        return TIEBREAK_CHAINS.get(self.tiebreaks, rules.TIEBREAKS)


# setting -> the leading part of rules.TIEBREAKS it stands for (A-SJ-02)
TIEBREAK_CHAINS = {
    TIES_COUNT_BACK: rules.TIEBREAKS,
    TIES_BEST_GAME: rules.TIEBREAKS[:1],
    TIES_SHARE: (),
}


SJOELEN = GameFormat(
    key="shuffleboard",
    label=_("Sjoelen"),
    url_segment="sjoelen",
    settings_class=SjoelenSettings,
    settings_form="shuffleboard.forms.SjoelenSettingsForm",
    hooks_class="shuffleboard.hooks.SjoelenHooks",
)
