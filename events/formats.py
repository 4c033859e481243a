"""The format contract: how a game format plugs into the shared ``events`` app.

A format is one Django app that declares one :class:`GameFormat` (in its ``format.py``) and
registers it from its ``AppConfig.ready()`` (``register(BLOKUS)``).

``events`` knows formats only through this registry: the declaration (:class:`GameFormat`, a
handful of fields), the format's :class:`FormatHooks` (methods with defaults, and typed
protocols: :class:`ExportModule`, :class:`ProposalsModule`, ``events.api.contract``), and names
that follow from the format's key by convention (its rules, URLs, templates). It never names a
format. A new capability asks the format through a new hooks method with a default. What one
seat may state: the format's migration installs ``events.seat_checks.SeatValuesCheck``.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from importlib import import_module
from types import ModuleType
from typing import Any, Protocol, TypeVar

from django import forms
from django.urls import URLPattern, URLResolver, include, path
from django.utils.functional import Promise
from django.utils.module_loading import import_string
from django.utils.translation import gettext as _

from events.api.contract import ReadApiModule
from events.calendar.feeds import CalendarItem
from events.rules.series import SeriesResult

SettingsT = TypeVar("SettingsT")


class ExportModule(Protocol):
    """A format's part of the downloads and the whole-event document (``events.exchange``):
    usually its ``export.py`` module, which mypy checks against this protocol."""

    @property
    def TABLES(self) -> Sequence[Any]:  # noqa: N802 (a module's constant)
        """events.exchange.document.Table, in insertion order."""

    correction_payload: Callable[..., Any]  # (payload, remap) -> payload with new ids
    # (competition, public=False) -> events.exchange.sheets.Sheet; public: the names as the
    # players chose to be shown (Player.public_name), for pages anyone reads
    standings: Callable[..., Any]
    results: Callable[..., Any]


@dataclass
class ProposalTarget:
    """One game as the players' results lifecycle (``events.services.proposals``) sees it; the
    format builds it (``ProposalsModule.target``/``proposal_target``) and fills it in when it
    locks its rows."""

    competition: Any
    game: Any  # the proposals' ``Game`` row, or None for a format without game rows (sjoelen)
    match: dict[str, Any]  # ResultProposal lookups naming this game's proposals
    code_key: str  # the key of the wrong-code counter (events.services.attempts)
    code: str  # the code a player must type (a table's, a board's)
    wrong_code: Any  # the message for a wrong code
    code_locked: Any  # the message once the codes are locked
    payload: dict[str, Any]  # the result sent, checked for shape only
    owner_id: int | None = None  # the entry whose game it is, who may not confirm it (sjoelen)


@dataclass(frozen=True)
class TrailLine:
    """What an applied result adds to the correction trail."""

    entry: Any
    item: Any  # str, or events.common.words.Words (shown in the reader's language)
    after: Any


class ProposalsModule(Protocol):
    """A format's part of results players enter themselves: usually its ``proposals.py``
    module. ``events.services.proposals`` holds the one lifecycle (submit, confirm, accept,
    reject, the code lockout, the row locks, the trail); the format says which game a result
    is for, who may send and confirm it, and checks and applies it with its own services."""

    @property
    def SETTING(self) -> str:  # noqa: N802 (a module's constant)
        """The settings field that turns it on."""

    @property
    def DESK_TEMPLATE(self) -> str:  # noqa: N802 (a module's constant)
        """The desk's rendering of one game's proposals."""

    @property
    def OWN_PROPOSAL(self) -> Any:  # noqa: N802 (a module's constant)
        """The refusal when the proposer (or the game's owner) confirms it."""

    # (competition, payload, game) -> ProposalTarget, before the transaction (shape checks)
    target: Callable[..., ProposalTarget]
    proposal_target: Callable[..., ProposalTarget]  # (proposal) -> ProposalTarget
    lock: Callable[..., None]  # (target): lock the game's rows, refresh target.competition
    sender: Callable[..., Any]  # (target, entry, open proposals) -> entry allowed to send
    confirmer: Callable[..., Any]  # (target, entry) -> entry allowed to confirm
    ensure_no_result: Callable[..., None]  # (target): refuse when the game has a result
    clean: Callable[..., dict[str, Any]]  # (target, payload) -> payload, by the format's rules
    apply: Callable[..., TrailLine]  # (target, proposal, payload, by=) -> the trail's line
    group_key: Callable[..., Any]  # (proposal) -> its game's key, grouping the desk's list
    desk_seats: Callable[..., Any]  # (games) -> {game id: seats} for the desk's list
    rows: Callable[..., Any]  # (seats, payload, official) -> rows the desk template shows
    edit_form: Callable[..., Any]  # (seats, payload, data=None) -> the desk's edit form
    form_payload: Callable[..., Any]  # (form) -> payload


class FormatHooks:
    """What ``events`` asks of a format, each with a default. A format subclasses it in its
    ``hooks.py`` and overrides what it does differently; ``events`` calls these and nothing
    else of the format (besides the conventions of :class:`GameFormat`)."""

    # Seat score and points come from a detail table (a Blokus hand): the Seat admin shows them.
    derived_seat_scores: bool = False
    # While a competition runs, withdrawing a player changes its games, so the format's own
    # page (URL name taking event_slug, competition_slug, entry_id) does it instead of the desk.
    running_withdraw_url: str = ""

    @property
    def export(self) -> ExportModule | None:
        """The format's part of the downloads and the event document, or None."""
        return None

    @property
    def proposals(self) -> ProposalsModule | None:
        """The format's part of results players enter themselves, or None."""
        return None

    @property
    def read_api(self) -> ReadApiModule | None:
        """The format's public data for the read API (``events.api``), or None."""
        return None

    def demo(self, organiser: Any) -> Any:
        """A demo competition with players and games (``manage.py load_demo``), or None."""
        return None

    def private_links(self, entries: Sequence[Any]) -> dict[int, str]:
        """Each entry's private page (a path) for the person's sign-up page, where only they
        act (the round robin's moves). By default none. One query for all of them."""
        return {}

    def sign_up_sessions(self, competition: Any) -> list[Any]:
        """The sessions (``events.models.Session``) a person chooses one of at online sign-up,
        each with its own seats (``sign_up_cap``) and waitlist; by default none (the
        competition is entered as a whole). One query."""
        return []

    def sign_up_seated(self, entry: Any, session: Any) -> None:
        """A sign-up for ``session`` (one of ``sign_up_sessions``) got its seat as ``entry``:
        put the entry in that session. Called inside the sign-up's transaction; raise
        ``events.errors.ServiceError`` to refuse the seat."""

    def series_results(self, competitions: Sequence[Any]) -> list[SeriesResult]:
        """These competitions' standings as a series counts them: a :class:`SeriesResult` per
        placed player (a running one's current standings). Constant queries. By default none
        (the format cannot join a series)."""
        return []

    def series_links(self, series: Any) -> list[tuple[Any, str]]:
        """More pages about a series of this format, as ``(label, path)`` for its public page
        (the Blokus rating list of the series' players). By default none."""
        return []

    def games_changed(self, competitions: Sequence[Any]) -> None:
        """Their games changed other than by a result (the first day moved, an import, a merged
        player); inside the write's transaction. By default nothing."""

    def calendar_items(self, competitions: Any, entries: Any = None) -> list[CalendarItem]:
        """Times for calendar feeds (``events.calendar``): with ``entries`` (one player's) that
        player's own, else the competitions' public ones. Constant queries. By default none."""
        return []

    def entry_check(self, competition: Any) -> None:
        """Raise ``events.errors.Refused`` (saying why) when the format takes no new entry or
        check-in now (a drawn round robin). Registration, check-in and import call it."""

    def check_in_changed(self, entry: Any) -> None:
        """``entry`` was checked in or its check-in undone (``entry.checked_in_at``), inside the
        write's transaction: tell whom it concerns (sjoelen's boards). By default nothing."""

    def correct_seats(
        self,
        *,
        game: Any,
        values: Mapping[int, Mapping[str, Any]],
        by: Any,
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

    def undo_correction(self, correction: Any, by: Any) -> None:
        """Put back the result a Correction replaced, through the format's own services (which
        record the undo as a correction); the desk refuses it when not overridden."""
        raise NotImplementedError

    def corrects_seats(self) -> bool:
        return type(self).correct_seats is not FormatHooks.correct_seats

    def undoes_corrections(self) -> bool:
        return type(self).undo_correction is not FormatHooks.undo_correction


@dataclass(frozen=True)
class GameFormat:
    """Everything ``events`` needs to know about one game format: a few plain fields and the
    format's hooks. The rest follows from the key, which is the format's app label, by
    convention: the rules in ``<key>.rules`` (pure, no Django), the URLs in ``<key>.urls``
    (named ``home`` and ``desk_home`` for the public and desk start pages, ``screen`` for the
    projector), the panels in ``templates/<key>/_competition_public.html`` and
    ``_competition_desk.html``, and the optional ``<key>/_head.html``."""

    key: str  # the app label; stored in Competition.format, never changes once used
    label: str | Promise  # shown to people ("Sjoelen")
    url_segment: str  # the word after /e/<event>/<competition>/ and /desk/<event>/<competition>/
    settings_class: type  # a frozen dataclass: the settings, their types and their defaults
    settings_form: str  # dotted path of the form class that validates and edits them
    # Dotted path of the format's FormatHooks subclass (its hooks.py). A path, not the class:
    # the hooks import the format's modules, which import this declaration.
    hooks_class: str = "events.formats.FormatHooks"
    # A player's own pages, in the player's language (events.language): (URL name, the URL
    # keyword naming the player, the ``Entry`` lookup it fills), e.g. ("chess:private",
    # "token", "chess_token__token"). A tuple, so the format stays hashable.
    player_pages: tuple[tuple[str, str, str], ...] = ()

    @cached_property
    def hooks(self) -> FormatHooks:
        """What ``events`` asks of the format (one instance per format)."""
        hooks = import_string(self.hooks_class)()
        if not isinstance(hooks, FormatHooks):
            raise TypeError(f"{self.hooks_class} is not a FormatHooks.")
        return hooks

    # --- the conventions ---

    @property
    def rules_module(self) -> str:
        return f"{self.key}.rules"

    @property
    def urls(self) -> str:
        return f"{self.key}.urls"

    @property
    def public_panel(self) -> str:
        return f"{self.key}/_competition_public.html"

    @property
    def desk_panel(self) -> str:
        return f"{self.key}/_competition_desk.html"

    @property
    def head(self) -> str:
        """The template of <link>/<script> tags the panels need, or "" when there is none."""
        return _existing_template(f"{self.key}/_head.html")

    @property
    def public_home(self) -> str:
        return f"{self.key}:home"

    @property
    def desk_home(self) -> str:
        return f"{self.key}:desk_home"

    @property
    def screen(self) -> str:
        return f"{self.key}:screen"

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


@lru_cache(maxsize=64)
def _existing_template(name: str) -> str:
    from django.template import TemplateDoesNotExist
    from django.template.loader import get_template

    try:
        get_template(name)
    except TemplateDoesNotExist:
        return ""
    return name


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


def format_urls(
    game_format: GameFormat,
    *,
    public: Sequence[URLPattern],
    desk: Sequence[URLPattern],
    home: str,
    desk_home: str,
) -> list[URLPattern | URLResolver]:
    """A format's URL patterns: ``public`` routes (relative) under its public prefix, ``desk``
    routes under its desk prefix, each group behind one match (events.common.routing), and
    the routes named ``home`` and ``desk_home`` again under the names every format has."""

    def with_alias(routes: Sequence[URLPattern], name: str, alias: str) -> list[URLPattern]:
        start = next(r for r in routes if r.name == name)
        return [*routes, URLPattern(start.pattern, start.callback, start.default_args, alias)]

    return [
        path(public_prefix(game_format), include(with_alias(public, home, "home"))),
        path(desk_prefix(game_format), include(with_alias(desk, desk_home, "desk_home"))),
    ]


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


# --- the contract's checks (the checklist of docs/architecture.md) -----------------------------


def contract_problems(game_format: GameFormat) -> list[str]:
    """What ``game_format`` misses of the contract, one sentence each (empty: it plugs in).
    The tests run it on every registered format and on a new one built in a temporary app."""
    from django.apps import apps
    from django.template import TemplateDoesNotExist
    from django.template.loader import get_template

    problems = []
    key = game_format.key
    if not apps.is_installed(key) or apps.get_app_config(key.rsplit(".", 1)[-1]).name != key:
        problems.append(f"{key}: the key is not the label of an installed app")
    try:
        game_format.hooks  # noqa: B018 (imported and checked on first use)
    except (ImportError, TypeError) as exc:
        problems.append(f"{key}: no hooks: {exc}")
    if not dataclasses.is_dataclass(game_format.settings_class):
        problems.append(f"{key}: the settings class is not a dataclass")
    try:
        form = game_format.form_class()
    except ImportError:
        problems.append(f"{key}: no settings form {game_format.settings_form}")
    else:
        fields = {f.name for f in dataclasses.fields(game_format.settings_class)}
        missing = sorted(fields - set(form.base_fields))
        if missing:
            problems.append(f"{key}: the settings form has no field for {missing}")
    modules = {}
    for module in (game_format.rules_module, game_format.urls):
        try:
            modules[module] = import_module(module)
        except ImportError:
            problems.append(f"{key}: no module {module}")
    urls = modules.get(game_format.urls)
    if urls is not None:
        names = {getattr(p, "name", None) for p in _patterns(getattr(urls, "urlpatterns", []))}
        if getattr(urls, "app_name", None) != key:
            problems.append(f"{key}: {game_format.urls} has no app_name {key!r}")
        for name in ("home", "desk_home", "screen"):
            if name not in names:
                problems.append(f"{key}: {game_format.urls} names no {name!r} page")
    for template in (game_format.public_panel, game_format.desk_panel):
        try:
            get_template(template)
        except TemplateDoesNotExist:
            problems.append(f"{key}: no template {template}")
    return problems


def _patterns(patterns: Sequence[Any]) -> list[Any]:
    found = []
    for pattern in patterns:
        found.append(pattern)
        found += _patterns(getattr(pattern, "url_patterns", []))
    return found
