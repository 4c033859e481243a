"""A competition's settings: each format's frozen dataclass, stored as JSON on the competition,
read back typed, and checked when an organiser (or admin) changes them."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _

from events.formats.registry import get_format, is_registered

if TYPE_CHECKING:
    from events.formats.declaration import GameFormat

# Stored settings come from admin too: refuse what would make a form or a page work hard.
SETTINGS_MAX_BYTES = 4000


def jsonable(values: dict[str, Any]) -> dict[str, Any]:
    """Settings values as JSON stores them (dates and times as ISO 8601 text)."""
    return {
        name: value.isoformat() if hasattr(value, "isoformat") else value
        for name, value in values.items()
    }


def read(game_format: GameFormat, stored: Mapping[str, Any] | None) -> Any:
    """``GameFormat.read_settings``: the stored values over the defaults, each through the form."""
    if not isinstance(stored, Mapping):
        return game_format.settings_class()
    try:
        frozen = json.dumps(stored, sort_keys=True)
    except (TypeError, ValueError, RecursionError):
        return game_format.settings_class()
    return _read(game_format, frozen)


@lru_cache(maxsize=512)
def _read(game_format: GameFormat, stored_json: str) -> Any:
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


def default_settings(key: str) -> dict[str, Any]:
    return get_format(key).default_settings()


def settings_errors(key: str, values: Any) -> list[str]:
    """Readable problems with a competition's stored settings; empty when they are valid."""
    if not is_registered(key):
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
    return jsonable(form.cleaned_data)
