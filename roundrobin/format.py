"""The correspondence round robin as a format of the shared events app: settings and plug."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from events.formats import GameFormat
from roundrobin.rules.turns import SIMULTANEOUS, TURN_MODELS

COLOURS_RANDOM, COLOURS_BERGER = "random", "berger"


@dataclass(frozen=True)
class RoundRobinSettings:
    """A round robin's settings; these defaults are the only ones (the form reads them)."""

    max_table_size: int = 7
    hours_per_move: int = 24
    rated: bool = True
    colours: str = COLOURS_RANDOM  # or COLOURS_BERGER (balanced Berger tables)
    reminder_hours: int = 6  # e-mail before the deadline; 0 = never
    # A-RR-09's alternative: a tie left after a mini round robin is shared at once.
    share_mini_ties: bool = False
    # A-RR-01: "simultaneous" (both owe a move each turn) or "alternating" (rules.turns).
    turns: str = SIMULTANEOUS
    # Leave days (roundrobin.rules.leave): days of leave per player; 0 = off.
    leave_days: int = 0

    def __post_init__(self) -> None:
        # Stored settings were validated when written, but rows older than a setting's
        # validation may hold a blank or odd value: such a value takes its default.
        for spec in dataclasses.fields(self):
            value = getattr(self, spec.name)
            default = spec.default
            fixed: object
            if isinstance(default, bool):
                fixed = value if isinstance(value, bool) else default
            elif isinstance(default, int):
                fixed = _whole(value, default)
            else:
                fixed = value if isinstance(value, str) and value else default
            object.__setattr__(self, spec.name, fixed)
        if self.hours_per_move < 1:
            object.__setattr__(self, "hours_per_move", RoundRobinSettings.hours_per_move)
        if self.turns not in TURN_MODELS:
            object.__setattr__(self, "turns", RoundRobinSettings.turns)


def _whole(value: object, default: int) -> int:
    if isinstance(value, bool):
        return default
    try:
        return int(value)  # type: ignore[call-overload]  # stored JSON: a number or a string
    except (TypeError, ValueError):
        return default


ROUNDROBIN = GameFormat(
    key="roundrobin",
    label=_("Correspondence round robin"),
    url_segment="roundrobin",
    settings_class=RoundRobinSettings,
    settings_form="roundrobin.forms.RoundRobinSettingsForm",
    hooks_class="roundrobin.hooks.RoundRobinHooks",
    player_pages=(
        ("roundrobin:private", "token", "rr_token__token"),
        ("roundrobin:private_page", "entry_id", "pk"),
    ),
)
