"""A format's declaration: :class:`GameFormat`, a handful of plain fields and the names that
follow from its key by convention (its rules, URLs, templates), and where its pages live."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from importlib import import_module
from types import ModuleType
from typing import Any

from django import forms
from django.urls import URLPattern, URLResolver, include, path
from django.utils.functional import Promise
from django.utils.module_loading import import_string

from events.formats import settings as stored_settings
from events.formats.hooks import FormatHooks

# A competition and a series store their format's key in a column this long.
KEY_MAX_LENGTH = 20


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
    hooks_class: str = "events.formats.hooks.FormatHooks"
    # A player's own pages, in the player's language (events.language): (URL name, the URL
    # keyword naming the player, the ``Entry`` lookup it fills), e.g. ("chess:private",
    # "token", "chess_token__token"). A tuple, so the format stays hashable.
    player_pages: tuple[tuple[str, str, str], ...] = ()

    @cached_property
    def hooks(self) -> FormatHooks:
        """What ``events`` asks of the format (one instance per format). The capabilities it
        takes part in are the protocols its class also implements (``registry.part``)."""
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
        return stored_settings.jsonable(dataclasses.asdict(self.settings_class()))

    def read_settings(self, stored: Mapping[str, Any] | None) -> Any:
        """The typed settings of a competition: stored values over the defaults.

        Stored values pass through the settings form again, so a value an old backup or a raw
        edit stored as text ("3") is read as its type (3); a value the form refuses, or a key it
        does not know, takes its default rather than breaking a page.
        """
        return stored_settings.read(self, stored)


@lru_cache(maxsize=64)
def _existing_template(name: str) -> str:
    from django.template import TemplateDoesNotExist
    from django.template.loader import get_template

    try:
        get_template(name)
    except TemplateDoesNotExist:
        return ""
    return name


# --- where a format's pages live ---

PUBLIC = "e/<slug:event_slug>/<slug:competition_slug>/"
DESK = "desk/<slug:event_slug>/<slug:competition_slug>/"


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
