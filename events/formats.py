"""The format contract: how a game format plugs into the shared ``events`` app.

A format is one Django app that declares one :class:`GameFormat` (in its ``format.py``) and
registers it from its ``AppConfig.ready()``::

    class BlokusConfig(AppConfig):
        name = "blokus"

        def ready(self) -> None:
            register(BLOKUS)

``events`` knows formats only through this registry: the competition's format choices, the
settings form and its defaults, the public and desk panels, the demo, the URLs, whether seat
scores are derived, the running-withdrawal page. It never names a format.

What one seat of a format may state is not declared here: the format app's own migration
installs the database check (``events.seat_checks.SeatValuesCheck``; docs/architecture.md,
"Constraints per format").
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import import_module
from types import ModuleType
from typing import Any, Protocol, TypeVar

from django import forms
from django.utils.functional import Promise
from django.utils.module_loading import import_string
from django.utils.translation import gettext as _

SettingsT = TypeVar("SettingsT")


class DemoLoader(Protocol):
    """What a format's demo module offers ``manage.py load_demo``."""

    def create(self, organiser: Any) -> Any:  # -> Competition, with players and games
        ...


@dataclass(frozen=True)
class GameFormat:
    """Everything ``events`` needs to know about one game format."""

    key: str  # stored in Competition.format; never changes once competitions use it
    label: str | Promise  # shown to people ("Sjoelen")
    url_segment: str  # the word after /e/<event>/<competition>/ and /desk/<event>/<competition>/
    rules_module: str  # dotted path of the pure rules module (no Django import)
    settings_class: type  # a frozen dataclass: the settings, their types and their defaults
    settings_form: str  # dotted path of the form that validates and edits them
    urls: str  # dotted path of the URL module (its patterns start with PUBLIC or DESK below)
    public_panel: str  # template included on the public competition page
    desk_panel: str  # template included on the competition's desk page
    public_home: str  # URL name of the format's public start page (event_slug, competition_slug)
    desk_home: str  # URL name of the format's desk start page (event_slug, competition_slug)
    demo: str = ""  # dotted path of a module with ``create(organiser) -> Competition``
    # Template of <link>/<script> tags the panels need, put in <head> of the pages showing them.
    head: str = ""
    # Seat score and points are computed from a detail table (a Blokus hand) edited in its own
    # admin; the shared Seat admin then shows them read-only.
    derived_seat_scores: bool = False
    # While a competition runs, withdrawing a player changes its games, so the format's own
    # page (URL name taking event_slug, competition_slug, entry_id) does it instead of the desk.
    running_withdraw_url: str = ""
    # Dotted path of ``check(competition) -> None`` that raises ``events.errors.Refused`` (with
    # a sentence saying why) when the format takes no new entry or check-in now (a round robin
    # whose tables are drawn). The desk's registration, check-in and import call it.
    entry_check: str = ""
    # Dotted path of ``correct_seats(*, game, values, by) -> None`` for formats whose results
    # live on the shared Seat rows (``values``: seat pk -> {"score", "points", "colour"}): it
    # validates through the rules (raising events.errors.Invalid with a field-level message),
    # applies, recomputes everything downstream, records the Correction and bumps versions. The
    # shared Game/Seat admin calls it instead of saving seats itself.
    correct_seats: str = ""
    # Dotted path of ``undo(correction, user) -> None``: puts back the result a Correction
    # replaced, through the format's own services (which record the undo as a correction).
    undo_correction: str = ""
    screen: str = ""  # URL name of the projector screen, when the format has its own
    # Dotted path of the format's export module (events/exchange/document.py): ``TABLES`` (its own
    # tables in a whole-event export), ``correction_payload(payload, remap)``, and
    # ``standings(competition)`` / ``results(competition)`` for the CSV and XLSX downloads
    # (events/exchange/sheets.py).
    export: str = ""
    # Dotted path of the format's module for results players enter themselves (issue 16,
    # events/services/proposals.py): ``SETTING`` (the settings field that turns it on),
    # ``clean(game, payload) -> payload`` (validates through the format's rules, raising
    # events.errors.Invalid), ``apply(proposal, payload, by) -> None`` (saves through the
    # format's own result service) and ``summary(game, payload) -> list[(name, text)]``.
    proposals: str = ""
    # A player's own pages, shown in the player's language (events.language): one triple per
    # page, (URL name, the URL keyword naming the player, the ``Entry`` lookup it fills), e.g.
    # ("chess:private", "token", "chess_token__token"). A tuple, so the format stays hashable.
    player_pages: tuple[tuple[str, str, str], ...] = ()

    # --- what the rest of the code asks of a format ---

    def rules(self) -> ModuleType:
        return import_module(self.rules_module)

    def form_class(self) -> type[forms.Form]:
        form: type[forms.Form] = import_string(self.settings_form)
        return form

    def default_settings(self) -> dict[str, Any]:
        """The defaults, in their stored (JSON) form."""
        return _jsonable(dataclasses.asdict(self.settings_class()))

    def read_settings(self, stored: Mapping[str, Any] | None) -> Any:
        """The typed settings of a competition: stored values over the defaults.

        Stored values pass through the settings form again, so a value an old backup or a raw
        edit stored as text ("3") is read as its type (3); a value the form refuses, or a key it
        does not know, takes its default rather than breaking a page.
        """
        if not isinstance(stored, Mapping):
            return self.settings_class()
        try:
            frozen = json.dumps(stored, sort_keys=True)
        except (TypeError, ValueError, RecursionError):
            return self.settings_class()
        return _read_settings(self, frozen)


@lru_cache(maxsize=512)
def _read_settings(game_format: GameFormat, stored_json: str) -> Any:
    defaults = game_format.settings_class()
    stored = json.loads(stored_json)
    known = {f.name for f in dataclasses.fields(game_format.settings_class)}
    values = {name: value for name, value in stored.items() if name in known}
    form = game_format.form_class()(data={**game_format.default_settings(), **values})
    form.is_valid()
    typed = {name: value for name, value in form.cleaned_data.items() if name in known}
    try:
        return dataclasses.replace(defaults, **typed)
    except (TypeError, ValueError):
        return defaults


PUBLIC = "e/<slug:event_slug>/<slug:competition_slug>/"
DESK = "desk/<slug:event_slug>/<slug:competition_slug>/"

_REGISTRY: dict[str, GameFormat] = {}


def register(game_format: GameFormat) -> GameFormat:
    """Add a format; called once from its app's ``AppConfig.ready()``."""
    existing = _REGISTRY.get(game_format.key)
    if existing is not None and existing != game_format:
        raise ValueError(f"Two formats registered under {game_format.key!r}.")
    _REGISTRY[game_format.key] = game_format
    return game_format


def all_formats() -> list[GameFormat]:
    """The registered formats, in the order of INSTALLED_APPS."""
    return list(_REGISTRY.values())


def get_format(key: str) -> GameFormat:
    """The format stored as ``key``; ``KeyError`` for an unknown one."""
    return _REGISTRY[key]


def format_choices() -> list[tuple[str, str | Promise]]:
    """Choices for ``Competition.format`` (a callable, so new formats need no migration)."""
    return [(f.key, f.label) for f in _REGISTRY.values()]


def public_prefix(game_format: GameFormat) -> str:
    """``e/<event>/<competition>/<segment>/``: where a format's public pages live."""
    return f"{PUBLIC}{game_format.url_segment}/"


def desk_prefix(game_format: GameFormat) -> str:
    """``desk/<event>/<competition>/<segment>/``: where a format's desk pages live."""
    return f"{DESK}{game_format.url_segment}/"


def default_settings(key: str) -> dict[str, Any]:
    return get_format(key).default_settings()


# Stored settings come from admin too: refuse what would make a form or a page work hard.
SETTINGS_MAX_BYTES = 4000


def settings_errors(key: str, values: Any) -> list[str]:
    """Readable problems with a competition's stored settings; empty when they are valid."""
    if key not in _REGISTRY:
        return [_("Unknown format %(key)r.") % {"key": key}]
    if not isinstance(values, dict):
        return [_("Settings must be a mapping of names to values.")]
    try:
        size = len(json.dumps(values))
    except (TypeError, ValueError, RecursionError):
        return [_("Settings must be plain values.")]
    if size > SETTINGS_MAX_BYTES:
        return [_("The settings are too long.")]
    nested = sorted(name for name, value in values.items() if isinstance(value, dict | list))
    if nested:
        return [_("Setting %(name)r must be a single value.") % {"name": name} for name in nested]
    form = get_format(key).form_class()(data=values)
    if form.is_valid():
        unknown = sorted(set(values) - set(form.fields))
        return [_("Unknown setting %(name)r.") % {"name": name} for name in unknown]
    return [f"{name}: {' '.join(str(msg) for msg in errs)}" for name, errs in form.errors.items()]


def clean_settings(key: str, values: dict[str, Any]) -> dict[str, Any]:
    """Validated settings in their JSON form (defaults filled in)."""
    form = get_format(key).form_class()(data={**default_settings(key), **values})
    if not form.is_valid():
        raise ValueError(form.errors)
    return _jsonable(form.cleaned_data)


def _jsonable(values: dict[str, Any]) -> dict[str, Any]:
    return {
        name: value.isoformat() if hasattr(value, "isoformat") else value
        for name, value in values.items()
    }
