"""The format contract: how a game format plugs into the shared ``events`` app.

A format is one Django app that declares one :class:`GameFormat` (in its ``format.py``) and
registers it from its ``AppConfig.ready()`` (``register(BLOKUS)``). ``events`` knows formats only
through this package and never names one:

- ``declaration``: :class:`GameFormat`, a handful of fields, and the names that follow from the
  format's key by convention (its rules, URLs, templates), and where its pages live;
- ``hooks``: :class:`FormatHooks`, what the core asks of every format, each with a default;
- ``registry``: the registered formats, and which take part in a capability (:func:`part`,
  :func:`formats_taking_part`); each capability's protocol is in its room's ``contract.py``
  (``events.series.contract``, ``events.calendar.contract``, ``events.signups.contract``,
  ``events.api.contract``, ``events.exchange.contract``) or, for results players enter, in
  ``proposals`` here;
- ``settings``: a competition's stored settings, read typed and checked;
- ``checks``: :func:`contract_problems`, what a format misses of the contract.

What one seat may state: the format's migration installs ``events.seat_checks.SeatValuesCheck``.
"""

from events.formats.checks import contract_problems
from events.formats.declaration import (
    DESK,
    PUBLIC,
    GameFormat,
    desk_prefix,
    format_urls,
    public_prefix,
)
from events.formats.hooks import FormatHooks, PeriodicWork
from events.formats.proposals import Proposals, ProposalsModule, ProposalTarget, TrailLine
from events.formats.registry import (
    all_formats,
    format_choices,
    formats_taking_part,
    get_format,
    part,
    register,
)
from events.formats.settings import (
    SETTINGS_MAX_BYTES,
    clean_settings,
    default_settings,
    settings_errors,
)

__all__ = [
    "DESK",
    "PUBLIC",
    "SETTINGS_MAX_BYTES",
    "FormatHooks",
    "GameFormat",
    "PeriodicWork",
    "ProposalTarget",
    "Proposals",
    "ProposalsModule",
    "TrailLine",
    "all_formats",
    "clean_settings",
    "contract_problems",
    "default_settings",
    "desk_prefix",
    "format_choices",
    "format_urls",
    "get_format",
    "part",
    "public_prefix",
    "register",
    "settings_errors",
    "formats_taking_part",
]
