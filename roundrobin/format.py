"""The correspondence round robin as a format of the shared events app: settings and plug."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from events.formats import GameFormat

COLOURS_RANDOM, COLOURS_BERGER = "random", "berger"


@dataclass(frozen=True)
class RoundRobinSettings:
    """A round robin's settings; these defaults are the only ones (the form reads them)."""

    max_table_size: int = 7
    hours_per_move: int = 24
    rated: bool = True
    colours: str = COLOURS_RANDOM  # or COLOURS_BERGER (balanced Berger tables)
    reminder_hours: int = 6  # e-mail before the deadline; 0 = never


ROUNDROBIN = GameFormat(
    key="roundrobin",
    label=_("Correspondence round robin"),
    url_segment="roundrobin",
    rules_module="roundrobin.rules",
    settings_class=RoundRobinSettings,
    settings_form="roundrobin.forms.RoundRobinSettingsForm",
    urls="roundrobin.urls",
    public_panel="roundrobin/_competition_public.html",
    desk_panel="roundrobin/_competition_desk.html",
    public_home="roundrobin:tables",
    desk_home="roundrobin:desk",
    demo="roundrobin.demo",
    running_withdraw_url="roundrobin:withdraw",
)
